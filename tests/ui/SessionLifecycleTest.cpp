// SPDX-License-Identifier: MIT
// The life of a session in the workbench from launch to quit (docs/workbench.md, "Sessions"):
// `kernel-workbench --session DIR` opens DIR; a plain launch reopens the last session; showing another
// session leaves nothing of the previous one on screen; closing while the agent works asks first; and a
// quit, by the window or by a signal, leaves no scratch in $TMPDIR, while a start removes what a killed
// workbench left.
#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/agent/AgentLoop.h"
#include "core/agent/WorkRootJanitor.h"
#include "core/model/Task.h"
#include "core/store/SessionStore.h"
#include "tests/support/LlmTestServer.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/AgentBridge.h"
#include "ui/ConversationPanel.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/DiffView.h"
#include "ui/MainWindow.h"
#include "ui/SessionHistory.h"
#include "ui/TimelineModel.h"
#include "ui/WorkbenchApp.h"

using namespace kwb;
using kwb::uitest::waitFor;

namespace {

const QString kResources = QStringLiteral(KWB_SOURCE_DIR "/resources");
const std::string kTaskDir = KWB_SOURCE_DIR "/resources/tasks/add_custom";

// A session folder on the add_custom task with `iterations` finished iterations (1 → 2 → …).
QString makeSessionFolder(const QString& root, const QString& name, int iterations) {
  const QString dir = root + QLatin1Char('/') + name;
  Session s = makeSession(loadTaskDir(kTaskDir), kTaskDir, SessionSettings{});
  for (int id = 1; id <= iterations; ++id) {
    Iteration it;
    it.id = id;
    if (id > 1) it.parentId = id - 1;
    it.state = IterationState::Done;
    it.verdict = Verdict::Pass;
    it.candidate.files["kernel.cpp"] = "// iteration " + std::to_string(id) + "\n";
    s.iterations.push_back(it);
  }
  SessionStore::create(dir.toStdString(), std::move(s));
  return QFileInfo(dir).canonicalFilePath();
}

QString expertReply() {
  std::ifstream in(kTaskDir + "/expert_candidate.cpp");
  std::stringstream ss;
  ss << in.rdbuf();
  return QString::fromStdString("A kernel.\n```cpp kernel.cpp\n" + ss.str() + "\n// " +
                                std::to_string(QDateTime::currentMSecsSinceEpoch()) + "\n```\n");
}

// The environment of a workbench started by a test: its own settings, data and scratch folders, an
// offscreen display, and no LLM settings of the person running the tests.
QProcessEnvironment childEnvironment(const QString& home) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const QString& k : env.keys())
    if (k.startsWith(QStringLiteral("KWB_LLM_"))) env.remove(k);
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
  env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
  env.insert(QStringLiteral("TMPDIR"), home + QStringLiteral("/tmp"));
  QDir().mkpath(home + QStringLiteral("/tmp"));
  return env;
}

QStringList agentScratch(const QString& tmp) {
  return QDir(tmp).entryList({QStringLiteral("kwb-agent-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
}

// Answers the next modal message box with `button` (the close confirmation blocks in exec()).
void answerNextMessageBox(QMessageBox::StandardButton button, bool* asked) {
  QTimer::singleShot(200, [button, asked] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box) return;
    *asked = true;
    box->button(button)->click();
  });
}

}  // namespace

class SessionLifecycleTest : public QObject {
  Q_OBJECT
  QTemporaryDir settingsDir_;
  QTemporaryDir tmpDir_;

 private slots:
  void initTestCase() {
    uitest::isolateSettings(settingsDir_.path());
    // Scratch of the loops this process runs goes here, where the test can see all of it.
    qputenv("TMPDIR", tmpDir_.path().toLocal8Bit());
  }

  void commandLineSessionOpensThatFolder() {
    QTemporaryDir home;
    const QString dir = makeSessionFolder(home.path(), QStringLiteral("given"), 2);
    QProcess workbench;
    workbench.setProcessEnvironment(childEnvironment(home.path()));
    workbench.setProcessChannelMode(QProcess::MergedChannels);
    // With one of Qt's own options too: those are Qt's to take, not unknown options of ours.
    workbench.start(
        QStringLiteral(KWB_WORKBENCH_EXE),
        {QStringLiteral("-platform"), QStringLiteral("offscreen"), QStringLiteral("--session"), dir});
    QVERIFY(workbench.waitForStarted());
    // The workbench records a session it shows in its recent list (QSettings, under XDG_CONFIG_HOME);
    // a launch that dropped --session would start on the task and record nothing.
    const QString conf = home.path() + QStringLiteral("/config/KernelWorkbench/kernel-workbench.conf");
    const bool recorded = waitFor(
        [&] {
          QFile f(conf);
          return f.open(QIODevice::ReadOnly) && QString::fromUtf8(f.readAll()).contains(dir);
        },
        60000);
    if (workbench.state() != QProcess::NotRunning) {
      workbench.terminate();
      QVERIFY(workbench.waitForFinished(60000));
    }
    QVERIFY2(recorded, workbench.readAll().constData());
  }

  void plainLaunchReopensTheLastSession() {
    QTemporaryDir root;
    const QString older = makeSessionFolder(root.path(), QStringLiteral("older"), 1);
    const QString last = makeSessionFolder(root.path(), QStringLiteral("last"), 3);
    {
      QSettings s;
      s.remove(QStringLiteral("sessions"));
      ui::rememberSession(s, older);
      ui::rememberSession(s, last);
    }
    ui::LaunchRequest plain;
    plain.taskDir = QString::fromStdString(kTaskDir);
    plain.reopenLast = true;
    {
      ui::WorkbenchApp app(kResources, root.path());
      std::optional<bool> done;
      app.launch(plain, [&](bool ok) { done = ok; });
      QVERIFY(waitFor([&] { return done.has_value(); }, 60000));
      QVERIFY(*done);
      QCOMPARE(app.sessionDir(), last);
      QCOMPARE(app.window()->timelineModel()->iterationCount(), 3);
    }
    // `--task` (reopenLast false) starts on the task instead.
    {
      ui::LaunchRequest onTask = plain;
      onTask.reopenLast = false;
      ui::WorkbenchApp app(kResources, root.path());
      std::optional<bool> done;
      app.launch(onTask, [&](bool ok) { done = ok; });
      QVERIFY(waitFor([&] { return done.has_value(); }, 60000));
      QVERIFY(app.sessionDir().isEmpty());
      QCOMPARE(app.window()->timelineModel()->iterationCount(), 0);
    }
    // The last session was deleted: the most recent one that still exists opens.
    QVERIFY(QDir(last).removeRecursively());
    {
      ui::WorkbenchApp app(kResources, root.path());
      std::optional<bool> done;
      app.launch(plain, [&](bool ok) { done = ok; });
      QVERIFY(waitFor([&] { return done.has_value(); }, 60000));
      QCOMPARE(app.sessionDir(), older);
    }
    // `--session` on a folder that is not a session: the task, and the status bar says why.
    {
      QTemporaryDir notASession;
      ui::LaunchRequest given = plain;
      given.sessionDir = notASession.path();
      ui::WorkbenchApp app(kResources, root.path());
      std::optional<bool> done;
      app.launch(given, [&](bool ok) { done = ok; });
      QVERIFY(waitFor([&] { return done.has_value(); }, 60000));
      QVERIFY(!*done);
      QVERIFY(app.sessionDir().isEmpty());
      const QString message = app.window()->statusBar()->currentMessage();
      QVERIFY2(message.contains(QStringLiteral("Could not open")) &&
                   message.contains(QStringLiteral("session.json")),
               qPrintable(message));
    }
  }

  void showingAnotherSessionResetsEveryPanel() {
    ui::MainWindow w;
    Session first;
    first.task.name = "add_custom";
    for (int id = 1; id <= 2; ++id) {
      Iteration it;
      it.id = id;
      if (id > 1) it.parentId = id - 1;
      it.state = IterationState::Done;
      it.verdict = id == 1 ? Verdict::CompileError : Verdict::Pass;
      it.candidate.files["kernel.cpp"] = "int a = " + std::to_string(id) + ";\nint b;\n";
      Diagnostic d;
      d.message = "something about iteration " + std::to_string(id);
      d.line = 1;
      it.diagnostics.push_back(d);
      LlmUsage u;
      u.promptTokens = 100;
      u.completionTokens = 20;
      it.usage = u;
      first.iterations.push_back(it);
    }
    w.showSession(first);
    QCOMPARE(w.selectedIteration(), std::optional<int>(2));
    QVERIFY(w.diffView()->changedRowCount() > 0);
    QCOMPARE(w.diagnosticsPanel()->visibleCount(), 1);
    auto statusTexts = [&] {
      QStringList out;
      for (auto* l : w.statusBar()->findChildren<QLabel*>()) out << l->text();
      return out.join(QLatin1Char('|'));
    };
    QVERIFY2(statusTexts().contains(QStringLiteral("iteration 2 of 2")), qPrintable(statusTexts()));

    Session second;
    second.task.name = "softmax_rows";
    w.showSession(second);
    QCOMPARE(w.selectedIteration(), std::nullopt);
    QCOMPARE(w.diffView()->changedRowCount(), 0);
    QCOMPARE(w.diagnosticsPanel()->visibleCount(), 0);
    QVERIFY(!w.conversationPanel()->text().contains(QStringLiteral("iteration")));
    QVERIFY2(!statusTexts().contains(QStringLiteral("iteration 2 of 2")), qPrintable(statusTexts()));
    QVERIFY2(statusTexts().contains(QStringLiteral("0 tokens")), qPrintable(statusTexts()));
  }

  void closingWhileTheAgentWorksAsksFirst() {
    std::vector<testsupport::ScriptedReply> script(4);
    for (auto& r : script) r.text = expertReply().toStdString();
    testsupport::LlmTestServer server(script);
    LlmEndpointConfig provider;
    provider.provider = "openai";
    provider.baseUrl = server.baseUrl() + "/v1";
    provider.model = "test-model";
    provider.apiKeyEnv = "KWB_LIFECYCLE_NO_KEY";
    QTemporaryDir sessions;
    QString dir;
    {
      ui::WorkbenchApp app(kResources, sessions.path());
      QVERIFY(app.startOnTask(QString::fromStdString(kTaskDir), provider, sessions.path()));
      dir = app.sessionDir();
      AgentLoop& loop = app.bridge()->loop();
      app.window()->show();
      app.window()->action(QStringLiteral("start"))->trigger();
      // Any step of an iteration in flight (the source is new, so it compiles for seconds).
      const auto working = [&] {
        const AgentState st = loop.state();
        return st != AgentState::Idle && st != AgentState::Paused && st != AgentState::Stopped &&
               st != AgentState::Finished;
      };
      QVERIFY(waitFor(working, 120000));
      QVERIFY(!agentScratch(tmpDir_.path()).isEmpty());

      bool asked = false;
      answerNextMessageBox(QMessageBox::Cancel, &asked);
      QVERIFY(!app.window()->close());  // the engineer changed their mind: nothing stops
      QVERIFY(asked);
      QVERIFY(app.window()->isVisible());
      QVERIFY(app.bridge() != nullptr);

      asked = false;
      answerNextMessageBox(QMessageBox::Yes, &asked);
      QVERIFY(app.window()->close());
      QVERIFY(asked);
      QVERIFY(app.bridge() == nullptr);  // the agent was told to stop
    }                                    // the stopped loop winds down: its scratch goes with it
    QVERIFY2(agentScratch(tmpDir_.path()).isEmpty(), qPrintable(agentScratch(tmpDir_.path()).join(u' ')));
    const Session s = SessionStore::load(dir.toStdString());
    QVERIFY(!s.iterations.empty());
    for (const auto& it : s.iterations) QVERIFY(isFinal(it.state));  // the one in flight: stopped

    // Nothing running: closing asks nothing.
    ui::WorkbenchApp idle(kResources, sessions.path());
    idle.window()->show();
    bool asked = false;
    answerNextMessageBox(QMessageBox::Cancel, &asked);
    QVERIFY(idle.window()->close());
    QTest::qWait(400);
    QVERIFY(!asked);
  }

  void aSignalQuitsLikeQuitAndLeavesNoScratch() {
    QTemporaryDir home;
    const QString tmp = home.path() + QStringLiteral("/tmp");
    std::vector<testsupport::ScriptedReply> script(4);
    for (auto& r : script) r.text = expertReply().toStdString();
    testsupport::LlmTestServer server(script);
    QProcessEnvironment env = childEnvironment(home.path());
    env.insert(QStringLiteral("KWB_LLM_PROVIDER"), QStringLiteral("openai"));
    env.insert(QStringLiteral("KWB_LLM_BASE_URL"), QString::fromStdString(server.baseUrl() + "/v1"));
    env.insert(QStringLiteral("KWB_LLM_MODEL"), QStringLiteral("test-model"));
    // The loop's scratch exists from the moment the session starts; the workbench is signalled while
    // it exists, as a terminal's Ctrl+C or a logout would.
    QProcess workbench;
    workbench.setProcessEnvironment(env);
    workbench.setProcessChannelMode(QProcess::MergedChannels);
    workbench.start(QStringLiteral(KWB_WORKBENCH_EXE),
                    {QStringLiteral("--task"), QString::fromStdString(kTaskDir)});
    QVERIFY(workbench.waitForStarted());
    QVERIFY2(waitFor([&] { return !agentScratch(tmp).isEmpty(); }, 60000), workbench.readAll().constData());
    workbench.terminate();  // SIGTERM
    QVERIFY(workbench.waitForFinished(60000));
    QCOMPARE(workbench.exitStatus(), QProcess::NormalExit);  // it quit, it was not killed by the signal
    QVERIFY2(agentScratch(tmp).isEmpty(), qPrintable(agentScratch(tmp).join(u' ')));
    QVERIFY2(QDir(tmp)
                 .entryList({QStringLiteral("kwb-*")}, QDir::Dirs | QDir::NoDotAndDotDot)
                 .filter(QRegularExpression(QStringLiteral("^kwb-(?!sandbox-)")))
                 .isEmpty(),
             qPrintable(QDir(tmp).entryList().join(u' ')));
  }

  void aStartRemovesAbandonedScratchWithoutAProvider() {
    // A workbench killed outright (another boot's marker: its owner is certainly gone) leaves a scratch
    // folder; the next start removes it even without a provider, i.e. without an agent loop.
    const QString abandoned = tmpDir_.path() + QStringLiteral("/kwb-agent-abandoned1");
    QDir().mkpath(abandoned + QStringLiteral("/iteration-0001"));
    std::ofstream(abandoned.toStdString() + "/" + kScratchOwnerFile)
        << "kwb-scratch-owner 1\npid 1\nstart 1\nboot another-boot\n";
    std::ofstream(abandoned.toStdString() + "/iteration-0001/kernel.o") << std::string(1 << 16, 'x');
    const QString notOurs = tmpDir_.path() + QStringLiteral("/kwb-agent-unmarked");
    QDir().mkpath(notOurs);
    {
      QSettings s;
      s.remove(QStringLiteral("llm"));
    }
    QTemporaryDir sessions;
    ui::WorkbenchApp app(kResources, sessions.path());
    QVERIFY(waitFor([&] { return !QFileInfo::exists(abandoned); }, 30000));
    QVERIFY(QFileInfo::exists(notOurs));  // without a marker it is not provably kwb's: left alone
  }
};

QTEST_MAIN(SessionLifecycleTest)
#include "SessionLifecycleTest.moc"
