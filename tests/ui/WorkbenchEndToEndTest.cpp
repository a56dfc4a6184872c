// SPDX-License-Identifier: MIT
// Drives the whole workbench: the GUI, the agent loop on its thread, the local LLM test server speaking
// the OpenAI wire format, and the real emulator backend. Start → repair → Pause → an edit → a pin →
// Roll back → Accept, checking what the panels show at each step.
#include <QAction>
#include <QDir>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>
#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/agent/AgentLoop.h"
#include "tests/support/LlmTestServer.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/AgentBridge.h"
#include "ui/ConstraintsPanel.h"
#include "ui/ConversationPanel.h"
#include "ui/DiagnosticsModel.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/KernelEditor.h"
#include "ui/LatencyChart.h"
#include "ui/MainWindow.h"
#include "ui/PipeUtilizationChart.h"
#include "ui/PipelineTraceView.h"
#include "ui/TimelineModel.h"
#include "ui/WorkbenchApp.h"

using namespace kwb;
using kwb::uitest::waitFor;

namespace {

std::string readFile(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

class WorkbenchEndToEndTest : public QObject {
  Q_OBJECT
  QTemporaryDir settingsDir_;

 private slots:
  void initTestCase() { uitest::isolateSettings(settingsDir_.path()); }

  void steerASessionThroughEveryControl() {
    const std::string taskDir = KWB_SOURCE_DIR "/resources/tasks/add_custom";
    const std::string good = readFile(taskDir + "/expert_candidate.cpp");
    QVERIFY(!good.empty());
    std::string broken = good;
    const auto pos = broken.find("GetBlockIdx()");
    QVERIFY(pos != std::string::npos);
    broken.replace(pos, 13, "GetBlockIdxx()");

    testsupport::ScriptedReply first, second;
    first.text = "Here is a first kernel.\n```cpp kernel.cpp\n" + broken + "```\n";
    second.text = "Fixed the typo.\n```cpp kernel.cpp\n" + good + "```\n";
    // Enough replies that the loop never runs dry (an exhausted script would end it with an LLM error).
    std::vector<testsupport::ScriptedReply> script{first};
    for (int i = 0; i < 40; ++i) script.push_back(second);
    testsupport::LlmTestServer server(script);

    QTemporaryDir sessions;
    LlmEndpointConfig provider;
    provider.provider = "openai";
    provider.baseUrl = server.baseUrl() + "/v1";
    provider.model = "test-model";
    provider.apiKeyEnv = "KWB_E2E_NO_KEY";
    provider.maxRetries = 0;

    ui::WorkbenchApp app(QStringLiteral(KWB_SOURCE_DIR "/resources"));
    QVERIFY2(app.startOnTask(QString::fromStdString(taskDir), provider, sessions.path()),
             qPrintable(app.lastError()));
    ui::MainWindow* w = app.window();
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
    QVERIFY(w->action(QStringLiteral("start"))->isEnabled());
    // Nothing runs yet: there is nothing to pause or stop, and no iteration to accept.
    QVERIFY(!w->action(QStringLiteral("pause"))->isEnabled());
    QVERIFY(!w->action(QStringLiteral("stop"))->isEnabled());
    QVERIFY(!w->action(QStringLiteral("accept"))->isEnabled());
    AgentLoop& loop = app.bridge()->loop();

    // Start: the agent repairs the compile error and passes.
    w->action(QStringLiteral("start"))->trigger();
    QVERIFY(waitFor([&] { return w->action(QStringLiteral("pause"))->isEnabled(); }, 30000));
    QVERIFY(!w->action(QStringLiteral("start"))->isEnabled());
    QVERIFY2(waitFor(
                 [&] {
                   auto s = loop.snapshot();
                   for (const auto& it : s.iterations)
                     if (it.verdict == Verdict::Pass) return true;
                   return false;
                 },
                 240000),
             "no passing iteration");
    w->action(QStringLiteral("pause"))->trigger();
    QVERIFY(waitFor(
        [&] { return loop.state() == AgentState::Paused || loop.state() == AgentState::Finished; }, 120000));
    QVERIFY(waitFor([&] { return w->timelineModel()->iterationCount() >= 2; }, 5000));

    // The second request carried the first candidate's compiler diagnostic.
    QVERIFY(server.requests().size() >= 2);
    QVERIFY2(server.requests()[1].allText().find("GetBlockIdxx") != std::string::npos,
             "repair prompt lacks the compiler diagnostic");

    // Selecting iteration 1 shows its compile error in the diagnostics panel and in the editor.
    w->selectIteration(1);
    QVERIFY(w->diagnosticsPanel()->model()->rowCount() >= 1);
    QCOMPARE(w->diagnosticsPanel()->model()->index(0, ui::DiagnosticsModel::CategoryColumn).data().toString(),
             QStringLiteral("compile-error"));
    QVERIFY(w->editor()->shownDiagnosticCount() >= 1);
    // ... and the conversation shows the feedback the repair prompt got about it.
    QVERIFY2(waitFor(
                 [&] {
                   return w->conversationPanel()->text().contains(
                              QStringLiteral("Feedback for the next prompt")) &&
                          w->conversationPanel()->text().contains(QStringLiteral("GetBlockIdxx"));
                 },
                 10000),
             qPrintable(w->conversationPanel()->text().right(600)));
    QVERIFY(w->grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/e2e_repair.png")));

    // Iteration 2 passed on the emulator: every analysis panel shows it.
    w->selectIteration(2);
    QVERIFY(w->latencyChart()->pointCount() >= 1);
    QVERIFY2(!w->pipeChart()->pipeNames().isEmpty(), "no pipe utilisation for a profiled iteration");
    // The trace and the transcript are read on a worker (IterationArtifactLoader): wait for them.
    QVERIFY2(waitFor([&] { return !w->traceView()->trace().processes.empty(); }, 10000),
             "no pipeline trace for a profiled iteration");
    QVERIFY2(
        waitFor([&] { return w->conversationPanel()->text().contains(QStringLiteral("Fixed the typo")); },
                10000),
        qPrintable(w->conversationPanel()->text().left(400)));
    QVERIFY(w->timelineModel()->indexOfIteration(2, ui::TimelineModel::StagesColumn).data().toString() ==
            QStringLiteral("✓ ✓ ✓"));
    QVERIFY(w->elapsedText() != QStringLiteral("0:00 elapsed"));

    // An edit by hand becomes a human iteration.
    w->selectIteration(2);
    const int before = int(loop.snapshot().iterations.size());
    w->editor()->setText(QString::fromStdString(good + "\n// tuned by hand\n"));
    QVERIFY(w->action(QStringLiteral("runEdit"))->isEnabled());
    w->action(QStringLiteral("runEdit"))->trigger();
    // Edits are taken at step boundaries outside any evaluation (docs/architecture.md, "The agent
    // loop"): when the pause landed inside an agent candidate's evaluation, the engineer steps it on.
    QVERIFY(waitFor(
        [&] {
          auto s = loop.snapshot();
          if (int(s.iterations.size()) > before && s.iterations.back().candidate.origin == Origin::Human &&
              s.iterations.back().verdict.has_value())
            return true;
          if (loop.state() == AgentState::Paused) w->action(QStringLiteral("step"))->trigger();
          return false;
        },
        240000));

    // A pinned rule shows in the constraints panel.
    emit w->addRuleRequested(QStringLiteral("Keep BUFFER_NUM = 2"));
    QVERIFY(waitFor([&] { return w->constraintsPanel()->count() == 1; }, 5000));

    // Roll back to iteration 1, then Step until the next round has generated: the new agent iteration
    // branches from 1, the timeline marks it as the engineer's roll back, and (holding the newest
    // iteration) it continues the main line while the old line nests under 1.
    emit w->rollbackRequested(1);
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("branches from iteration 1")));
    const int agentBefore = int(loop.snapshot().iterations.size());
    QVERIFY2(waitFor(
                 [&] {
                   const Session s = loop.snapshot();
                   for (const auto& it : s.iterations)
                     if (it.id > agentBefore && it.parentId == 1 && it.candidate.origin != Origin::Human)
                       return true;
                   const AgentState st = loop.state();
                   if (st == AgentState::Paused || st == AgentState::Finished)
                     w->action(QStringLiteral("step"))->trigger();
                   return false;
                 },
                 240000),
             "Roll back + Step made no new branch from iteration 1");
    QVERIFY(loop.snapshot().childrenOf(1).size() >= 2u);
    int branchId = 0;
    for (const auto& it : loop.snapshot().iterations)
      if (it.id > agentBefore && it.parentId == 1) branchId = it.id;
    QVERIFY(waitFor([&] { return w->timelineModel()->indexOfIteration(branchId).isValid(); }, 10000));
    QCOMPARE(
        ui::TimelineModel::BranchCause(
            w->timelineModel()->indexOfIteration(branchId).data(ui::TimelineModel::BranchCauseRole).toInt()),
        ui::TimelineModel::BranchCause::Rollback);
    QVERIFY(w->timelineModel()->indexOfIteration(branchId).data().toString().contains(
        QStringLiteral("rolled back")));
    const std::vector<int> childrenOfOne = loop.snapshot().childrenOf(1);
    const int oldLine = *std::min_element(childrenOfOne.begin(), childrenOfOne.end());
    QCOMPARE(w->timelineModel()->indexOfIteration(oldLine).parent(), w->timelineModel()->indexOfIteration(1));

    // Accept iteration 2: a CANN project is exported and the timeline marks it.
    QTemporaryDir exportRoot;
    const QString exportDir = exportRoot.path() + QStringLiteral("/add_custom_project");
    emit w->acceptRequested(2, exportDir);
    QVERIFY(waitFor(
        [&] {
          return w->timelineModel()->indexOfIteration(2).data(ui::TimelineModel::IsAcceptedRole).toBool();
        },
        10000));
    QVERIFY(QFile::exists(exportDir + QStringLiteral("/CMakeLists.txt")));
    w->action(QStringLiteral("stop"))->trigger();
    QVERIFY(loop.waitUntilDone(std::chrono::seconds(120)));
    QTest::qWait(200);  // the bridge delivers the last events
    w->selectIteration(2);
    // After Stop only Accept can still act (on a passing iteration).
    for (const char* key : {"start", "pause", "step", "stop", "hint", "rollback", "runEdit"})
      QVERIFY2(!w->action(QString::fromLatin1(key))->isEnabled(), key);
    QVERIFY(w->action(QStringLiteral("accept"))->isEnabled());
    QVERIFY(w->grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/e2e_accepted.png")));
  }
};

QTEST_MAIN(WorkbenchEndToEndTest)
#include "WorkbenchEndToEndTest.moc"
