// SPDX-License-Identifier: MIT
// The remote NPU host backend of the GUI (docs/workbench.md, "Settings"; docs/suites.md, "SSH"): its
// fields and their inline problems (the CLI's checks), what is stored, the new-session dialog's choice,
// and, against a real sshd on loopback (tests/services/start-sshd.sh) whose logins see the CANN
// stand-in toolkit: Check host without blocking the GUI thread, and a session whose evaluation builds
// and runs on that host. The sshd parts are skipped where openssh-server is not installed.
#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/agent/AgentLoop.h"
#include "core/store/SessionStore.h"
#include "tests/support/LlmTestServer.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/AgentBridge.h"
#include "ui/MainWindow.h"
#include "ui/NewSessionDialog.h"
#include "ui/ProviderSettings.h"
#include "ui/RemoteHostEditor.h"
#include "ui/RemoteHostSettings.h"
#include "ui/SessionDefaults.h"
#include "ui/SessionHistory.h"
#include "ui/SettingsDialog.h"
#include "ui/WorkbenchApp.h"

using namespace kwb;
using namespace kwb::ui;
using kwb::uitest::waitFor;

namespace {

std::string readFile(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

QString envLine(const QString& envFile, const QString& name) {
  std::ifstream in(envFile.toStdString());
  std::string line;
  const std::string prefix = "export " + name.toStdString() + "=";
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) return QString::fromStdString(line.substr(prefix.size()));
  return {};
}

QString visibleError(const RemoteHostEditor& editor, const char* name) {
  auto* label = editor.findChild<QLabel*>(QLatin1String(name));
  return label && !label->isHidden() ? label->text() : QString();
}

}  // namespace

class RemoteHostSettingsTest : public QObject {
  Q_OBJECT
  QTemporaryDir settingsDir_;
  QTemporaryDir root_;
  bool sshd_ = false;
  QString url_;
  QString sshConfig_;

 private slots:
  void initTestCase() {
    uitest::isolateSettings(settingsDir_.path());
    // The "remote" toolkit: the stand-in in a folder of its own that only the sshd's logins name.
    const QString cann = root_.filePath(QStringLiteral("remote-cann"));
    const std::string copy = "cp -r " KWB_FIXTURES_DIR "/cann_standin " + cann.toStdString();
    QCOMPARE(std::system(copy.c_str()), 0);
    const std::string start = KWB_SOURCE_DIR "/tests/services/start-sshd.sh " +
                              root_.filePath(QStringLiteral("sshd")).toStdString() + " " +
                              cann.toStdString() + " > /dev/null 2>&1";
    sshd_ = std::system(start.c_str()) == 0;
    const QString env = root_.filePath(QStringLiteral("sshd/env"));
    url_ = envLine(env, QStringLiteral("KWB_SSH_URL"));
    sshConfig_ = envLine(env, QStringLiteral("KWB_SSH_CONFIG"));
    qunsetenv("KWB_SSH_CONFIG");  // the field's default must not come from the developer's shell
  }

  void cleanupTestCase() {
    const std::string stop =
        KWB_SOURCE_DIR "/tests/services/stop-sshd.sh " + root_.filePath(QStringLiteral("sshd")).toStdString();
    (void)std::system(stop.c_str());
  }

  void eachFieldSaysWhatIsWrongAsItIsTyped() {
    RemoteHostEditor editor;
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    auto* url = editor.findChild<QLineEdit*>(QStringLiteral("remoteHostUrl"));
    auto* config = editor.findChild<QLineEdit*>(QStringLiteral("remoteHostSshConfig"));
    auto* dir = editor.findChild<QLineEdit*>(QStringLiteral("remoteHostRemoteDir"));
    auto* cann = editor.findChild<QLineEdit*>(QStringLiteral("remoteHostRemoteCann"));
    QVERIFY(url && config && dir && cann);
    // Nothing typed yet is not an error on screen, but it is not a usable host either.
    QVERIFY(visibleError(editor, "remoteHostUrlError").isEmpty());
    QVERIFY(editor.problems().url.contains(QStringLiteral("ssh://user@host")));

    const std::vector<std::pair<QString, QString>> bad = {
        {QStringLiteral("http://npu-1"), QStringLiteral("is not an ssh:// address")},
        {QStringLiteral("ssh://-oProxyCommand=x"), QStringLiteral("bad host \"-oProxyCommand=x\"")},
        {QStringLiteral("ssh://me@npu-1:99999"), QStringLiteral("bad port \"99999\"")},
        {QStringLiteral("ssh://m;e@npu-1"), QStringLiteral("bad user name \"m;e\"")},
        {QStringLiteral("ssh://[zz::1]"), QStringLiteral("is not an IPv6 address")},
    };
    for (const auto& [text, expected] : bad) {
      QTest::keyClicks(url, text);
      const QString shown = visibleError(editor, "remoteHostUrlError");
      QVERIFY2(shown.contains(expected), qPrintable(text + QStringLiteral(" -> ") + shown));
      url->clear();
    }
    QTest::keyClicks(url, QStringLiteral("ssh://me@npu-1.example.com:2222"));
    QVERIFY(visibleError(editor, "remoteHostUrlError").isEmpty());

    QTest::keyClicks(config, QStringLiteral("/no/such/ssh_config"));
    QVERIFY2(visibleError(editor, "remoteHostSshConfigError").contains(QStringLiteral("is not a file")),
             qPrintable(visibleError(editor, "remoteHostSshConfigError")));
    QTest::keyClicks(dir, QStringLiteral("relative/work"));
    QVERIFY(visibleError(editor, "remoteHostRemoteDirError")
                .contains(QStringLiteral("must be an absolute path")));
    QTest::keyClicks(cann, QStringLiteral("/opt/Ascend/$(reboot)"));
    QVERIFY(visibleError(editor, "remoteHostRemoteCannError")
                .contains(QStringLiteral("must be an absolute path")));
    QVERIFY(editor.problems().any());
    // Check host does not start with problems; it says which.
    QVERIFY(!editor.checkHost());
    QVERIFY2(editor.checkSummary().contains(QStringLiteral("ssh config")), qPrintable(editor.checkSummary()));

    config->clear();
    dir->clear();
    cann->clear();
    QTest::keyClicks(dir, QStringLiteral("/scratch/kwb"));
    QVERIFY(!editor.problems().any());
    QCOMPARE(editor.settings().url, QStringLiteral("ssh://me@npu-1.example.com:2222"));
    QCOMPARE(editor.settings().remoteDir, QStringLiteral("/scratch/kwb"));
  }

  void settingsKeepTheHostAndRefuseAnUnusableOne() {
    SessionDefaults defaults = builtinSessionDefaults();
    defaults.backend = QString::fromLatin1(kRemoteBackendChoice);
    SettingsDialog dialog(LlmEndpointConfig{}, defaults);
    RemoteHostSettings host;
    host.url = QStringLiteral("ssh://me@npu-1:2222");
    host.remoteDir = QStringLiteral("/scratch/kwb");
    dialog.setRemoteHost(host);
    QCOMPARE(dialog.remoteHost(), host);
    QCOMPARE(dialog.defaults().backend, QString::fromLatin1(kRemoteBackendChoice));

    // OK with the remote host as the default backend and a bad address keeps the dialog open.
    auto* url = dialog.remoteHostEditor()->findChild<QLineEdit*>(QStringLiteral("remoteHostUrl"));
    url->setText(QStringLiteral("ssh://me@npu-1:0"));
    dialog.tabs()->setCurrentIndex(0);
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    QVERIFY2(dialog.acceptError().contains(QStringLiteral("bad port")), qPrintable(dialog.acceptError()));
    QCOMPARE(dialog.tabs()->tabText(dialog.tabs()->currentIndex()), QStringLiteral("Backend"));
    url->setText(host.url);
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));

    // What is stored comes back, the default backend with it.
    QSettings s;
    saveRemoteHostSettings(s, dialog.remoteHost());
    saveSessionDefaults(s, dialog.defaults());
    QCOMPARE(loadRemoteHostSettings(s), host);
    QCOMPARE(loadSessionDefaults(s).backend, QString::fromLatin1(kRemoteBackendChoice));
    saveSessionRemoteHost(s, QStringLiteral("/tmp/some-session"), host.url);
    QCOMPARE(loadSessionRemoteHost(s, QStringLiteral("/tmp/some-session")), host.url);
    QVERIFY(loadSessionRemoteHost(s, QStringLiteral("/tmp/another-session")).isEmpty());
  }

  void newSessionOffersTheRemoteHostOnlyWhenItIsUsable() {
    SessionDefaults defaults = builtinSessionDefaults();
    defaults.backend = QString::fromLatin1(kRemoteBackendChoice);
    NewSessionDialog dialog(QStringLiteral(KWB_SOURCE_DIR "/resources/tasks"), defaults,
                            QStringLiteral("replay"));
    auto* backend = dialog.findChild<QComboBox*>(QStringLiteral("backend"));
    QVERIFY(backend);
    // No host yet: the emulator, and the remote entry says why it is off.
    QCOMPARE(dialog.choice().backend, QStringLiteral("ascend-sim"));
    RemoteHostSettings host;
    host.url = QStringLiteral("ssh://me@npu-1");
    dialog.setRemoteHost(host);
    QCOMPARE(dialog.choice().backend, QString::fromLatin1(kRemoteBackendChoice));
    const int at = backend->findData(QString::fromLatin1(kRemoteBackendChoice));
    QVERIFY(backend->itemText(at).contains(host.url));
    host.url = QStringLiteral("ssh://me@npu-1:0");
    dialog.setRemoteHost(host);
    QCOMPARE(dialog.choice().backend, QStringLiteral("ascend-sim"));
    QVERIFY(backend->itemData(at, Qt::ToolTipRole).toString().contains(QStringLiteral("bad port")));
  }

  void checkHostRunsTheHostDoctorOffTheGuiThread() {
    if (!sshd_) QSKIP("no sshd here (openssh-server)");
    RemoteHostEditor editor;
    RemoteHostSettings host;
    host.url = url_;
    host.sshConfig = sshConfig_;
    editor.setSettings(host);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    std::optional<bool> outcome;
    connect(&editor, &RemoteHostEditor::checkFinished, this, [&](bool ok) { outcome = ok; });
    // The event loop keeps turning while ssh works: a timer ticks until the outcome arrives (a check run on
    // the GUI thread would leave it no turn before its outcome).
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&] {
      if (!outcome) ++ticks;
    });
    ticker.start(10);
    auto* button = editor.findChild<QPushButton*>(QStringLiteral("remoteHostCheck"));
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY2(clock.elapsed() < 1500, "the click waited for ssh on the GUI thread");
    QVERIFY(editor.checking());
    QVERIFY(!button->isEnabled());
    QVERIFY(waitFor([&] { return outcome.has_value(); }, 60000));
    qInfo("Check host took %lld ms, %d timer ticks meanwhile", static_cast<long long>(clock.elapsed()),
          ticks);
    QVERIFY2(ticks >= 3, qPrintable(QStringLiteral("%1 ticks during the check").arg(ticks)));
    QVERIFY2(*outcome, qPrintable(editor.checkDetails()));
    QVERIFY(button->isEnabled());
    const QString cannRoot = root_.filePath(QStringLiteral("remote-cann"));
    QVERIFY2(editor.checkSummary().contains(QStringLiteral("CANN 8.1.RC1 at ") + cannRoot),
             qPrintable(editor.checkSummary()));
    QVERIFY2(editor.checkSummary().contains(QStringLiteral("no /dev/davinci")),
             qPrintable(editor.checkSummary()));
    QVERIFY(editor.checkDetails().contains(QStringLiteral("[ok]   cann toolkit")));
    QVERIFY(editor.checkDetails().contains(QStringLiteral("[ok]   bisheng")));

    // A port nobody listens on: the check says the host is unreachable, and how to fix it.
    host.url = QStringLiteral("ssh://127.0.0.1:1");
    editor.setSettings(host);
    outcome.reset();
    QVERIFY(editor.checkHost());
    QVERIFY(waitFor([&] { return outcome.has_value(); }, 60000));
    QVERIFY(!*outcome);
    QVERIFY2(editor.checkSummary().startsWith(QStringLiteral("✗ ssh://127.0.0.1:1: reachable:")),
             qPrintable(editor.checkSummary()));
  }

  void aSessionOnTheRemoteHostBuildsAndRunsThere() {
    if (!sshd_) QSKIP("no sshd here (openssh-server)");
    const std::string taskDir = KWB_SOURCE_DIR "/resources/tasks/add_custom";
    testsupport::ScriptedReply reply;
    reply.text =
        "The expert kernel.\n```cpp kernel.cpp\n" + readFile(taskDir + "/expert_candidate.cpp") + "```\n";
    testsupport::LlmTestServer server(std::vector<testsupport::ScriptedReply>(4, reply));
    LlmEndpointConfig provider;
    provider.provider = "openai";
    provider.baseUrl = server.baseUrl() + "/v1";
    provider.model = "test-model";
    provider.apiKeyEnv = "KWB_REMOTE_TEST_NO_KEY";
    provider.maxRetries = 0;

    QSettings s;
    RemoteHostSettings host;
    host.url = url_;
    host.sshConfig = sshConfig_;
    host.remoteDir = root_.filePath(QStringLiteral("remote-ws"));
    saveRemoteHostSettings(s, host);
    SessionDefaults defaults = builtinSessionDefaults();
    defaults.limits.maxIterations = 1;
    saveSessionDefaults(s, defaults);

    QTemporaryDir sessions;
    QString sessionDir;
    {
      WorkbenchApp app(QStringLiteral(KWB_SOURCE_DIR "/resources"));
      QVERIFY2(app.startOnTask(QString::fromStdString(taskDir), provider, sessions.path(),
                               QString::fromLatin1(kRemoteBackendChoice)),
               qPrintable(app.lastError()));
      MainWindow* w = app.window();
      w->show();
      QVERIFY(QTest::qWaitForWindowExposed(w));
      QCOMPARE(app.window()->session().settings.backend, std::string("ascend-cann"));
      QVERIFY2(w->backendDescription().contains(url_), qPrintable(w->backendDescription()));
      // The session's probe, off the GUI thread, names the stand-in toolkit in the status bar.
      QVERIFY2(waitFor([&] { return w->backendDescription().contains(QStringLiteral("CANN 8.1.RC1 on ")); },
                       60000),
               qPrintable(w->backendDescription()));
      QVERIFY(w->backendDescription().contains(QStringLiteral("CANN simulator")));

      w->action(QStringLiteral("start"))->trigger();
      AgentLoop& loop = app.bridge()->loop();
      QVERIFY2(waitFor(
                   [&] {
                     const Session snap = loop.snapshot();
                     return !snap.iterations.empty() && isFinal(snap.iterations.front().state);
                   },
                   240000),
               "the iteration did not finish");
      const Session snap = loop.snapshot();
      const Iteration& it = snap.iterations.front();
      QVERIFY2(it.state == IterationState::Done, nlohmann::json(it.diagnostics).dump(2).c_str());
      QVERIFY(it.compile.has_value());
      QVERIFY2(it.compile->ok, it.compile->log.c_str());
      QVERIFY2(it.compile->commandLine.find(url_.toStdString()) != std::string::npos,
               it.compile->commandLine.c_str());
      QVERIFY(it.run.has_value());
      // The stand-in runs under its msprof simulator: cann-sim, never the emulator.
      QCOMPARE(it.run->ranOn, RanOn::CannSim);
      const std::string evalJson = readFile(app.sessionDir().toStdString() + "/iterations/" +
                                            SessionStore::iterationFolderName(it.id) + "/eval.json");
      const auto report = nlohmann::json::parse(evalJson, nullptr, false);
      QVERIFY2(report.is_object(), evalJson.c_str());
      QCOMPARE(QString::fromStdString(report["artifacts"].value("remote_host", std::string())), url_);
      // The status bar says where the shown iteration ran.
      w->selectIteration(it.id);
      auto* timings = w->findChild<QLabel*>(QStringLiteral("evalTimings"));
      QVERIFY(timings);
      QVERIFY2(waitFor([&] { return timings->text().contains(QStringLiteral("ran on cann-sim on ") + url_); },
                       10000),
               qPrintable(timings->text()));
      QSettings after;
      QCOMPARE(loadSessionRemoteHost(after, app.sessionDir()), url_);
      sessionDir = app.sessionDir();
    }
    // Reopened by another window, the session continues on its host (session.json says ascend-cann; the
    // address is kept with the session's view), probed again off the GUI thread.
    QSettings stored;
    saveProviderSettings(stored, provider);  // a reopened session continues only with a provider
    WorkbenchApp reopened(QStringLiteral(KWB_SOURCE_DIR "/resources"));
    QVERIFY(uitest::openSessionAndWait(reopened, sessionDir));
    QVERIFY(reopened.bridge() != nullptr);
    QVERIFY2(waitFor(
                 [&] {
                   return reopened.window()->backendDescription().contains(
                       QStringLiteral("CANN 8.1.RC1 on ") + url_);
                 },
                 60000),
             qPrintable(reopened.window()->backendDescription()));
  }
};

QTEST_MAIN(RemoteHostSettingsTest)
#include "RemoteHostSettingsTest.moc"
