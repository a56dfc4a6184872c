// SPDX-License-Identifier: MIT
// The bridge between a live agent loop (the local LLM test server, the real emulator) and the window:
// LLM retries shown as they happen, Step running one whole iteration, and Accept exporting on a worker
// thread while the window says so.
#include <QAction>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/agent/AgentLoop.h"
#include "tests/support/LlmTestServer.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/AgentBridge.h"
#include "ui/MainWindow.h"
#include "ui/TimelineModel.h"
#include "ui/WorkbenchApp.h"

using namespace kwb;
using kwb::uitest::waitFor;

namespace {

const std::string kTaskDir = KWB_SOURCE_DIR "/resources/tasks/add_custom";

std::string expertCandidate() {
  std::ifstream in(kTaskDir + "/expert_candidate.cpp");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

LlmEndpointConfig providerFor(const testsupport::LlmTestServer& server) {
  LlmEndpointConfig provider;
  provider.provider = "openai";
  provider.baseUrl = server.baseUrl() + "/v1";
  provider.model = "test-model";
  provider.apiKeyEnv = "KWB_BRIDGE_TEST_NO_KEY";
  return provider;
}

testsupport::ScriptedReply goodReply() {
  testsupport::ScriptedReply r;
  r.text = "The expert kernel.\n```cpp kernel.cpp\n" + expertCandidate() + "```\n";
  return r;
}

}  // namespace

class AgentBridgeTest : public QObject {
  Q_OBJECT
  QTemporaryDir settingsDir_;

 private slots:
  void initTestCase() {
    uitest::isolateSettings(settingsDir_.path());
    QVERIFY(!expertCandidate().empty());
  }

  void eachLlmRetryIsShownWithItsCountAndWait() {
    testsupport::ScriptedReply unavailable;
    unavailable.fault = testsupport::LlmFault::ServerError;
    unavailable.status = 503;
    unavailable.errorMessage = "upstream is down";
    testsupport::LlmTestServer server({unavailable, unavailable, goodReply()});
    server.setFallback(goodReply());
    LlmEndpointConfig provider = providerFor(server);
    provider.maxRetries = 3;
    provider.backoffBaseMs = 400;
    QTemporaryDir sessions;
    ui::WorkbenchApp app(QStringLiteral(KWB_SOURCE_DIR "/resources"), sessions.path());
    QVERIFY2(app.startOnTask(QString::fromStdString(kTaskDir), provider, sessions.path()),
             qPrintable(app.lastError()));
    ui::MainWindow* w = app.window();
    QSignalSpy retries(app.bridge(), &ui::AgentBridge::llmRetry);
    QStringList seen;
    connect(app.bridge(), &ui::AgentBridge::llmRetry, this,
            [&](int, int, long long, const QString&) { seen << w->statusBar()->currentMessage(); });
    w->action(QStringLiteral("start"))->trigger();
    QVERIFY2(waitFor([&] { return retries.count() >= 2; }, 60000), "no LLM retry reached the window");
    QVERIFY2(seen.at(0).contains(QStringLiteral("retrying (1/3) in")), qPrintable(seen.at(0)));
    QVERIFY2(seen.at(1).contains(QStringLiteral("retrying (2/3) in")), qPrintable(seen.at(1)));
    QVERIFY2(seen.at(0).contains(QStringLiteral("503")) || seen.at(0).contains(QStringLiteral("upstream")),
             qPrintable(seen.at(0)));
    w->action(QStringLiteral("stop"))->trigger();
    QVERIFY(app.bridge()->loop().waitUntilDone(std::chrono::seconds(120)));
  }

  void stepRunsOneIterationAndAcceptExportsInTheBackground() {
    testsupport::LlmTestServer server({goodReply()});
    server.setFallback(goodReply());
    LlmEndpointConfig provider = providerFor(server);
    provider.maxRetries = 0;
    QTemporaryDir sessions;
    ui::WorkbenchApp app(QStringLiteral(KWB_SOURCE_DIR "/resources"), sessions.path());
    QVERIFY2(app.startOnTask(QString::fromStdString(kTaskDir), provider, sessions.path()),
             qPrintable(app.lastError()));
    ui::MainWindow* w = app.window();
    AgentLoop& loop = app.bridge()->loop();
    QVERIFY(w->action(QStringLiteral("step"))->isEnabled());
    QVERIFY(!w->action(QStringLiteral("pause"))->isEnabled());
    QVERIFY(!w->action(QStringLiteral("stop"))->isEnabled());

    // Step: one whole iteration (generate, compile, run, verify, profile), then paused.
    w->action(QStringLiteral("step"))->trigger();
    QVERIFY2(waitFor(
                 [&] {
                   return !app.bridge()->stepping() && loop.state() == AgentState::Paused &&
                          !loop.snapshot().iterations.empty();
                 },
                 240000),
             "the step never paused");
    QTest::qWait(500);  // a phase granted by mistake would show here
    QCOMPARE(loop.state(), AgentState::Paused);
    const Session s = loop.snapshot();
    QCOMPARE(s.iterations.size(), std::size_t(1));
    QVERIFY2(isFinal(s.iterations[0].state), "Step stopped inside the iteration");
    QCOMPARE(s.iterations[0].verdict, std::optional<Verdict>(Verdict::Pass));
    QVERIFY(w->action(QStringLiteral("step"))->isEnabled());
    QVERIFY(w->action(QStringLiteral("start"))->isEnabled());

    // Accept: the export runs on a worker thread; the window says it is exporting meanwhile.
    QTemporaryDir exportRoot;
    const QString exportDir = exportRoot.path() + QStringLiteral("/add_custom_project");
    w->selectIteration(1);
    QVERIFY(w->action(QStringLiteral("accept"))->isEnabled());
    emit w->acceptRequested(1, exportDir);
    QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("Exporting iteration 1")),
             qPrintable(w->statusBar()->currentMessage()));
    QVERIFY(!w->action(QStringLiteral("accept"))->isEnabled());
    QVERIFY(waitFor(
        [&] {
          return w->timelineModel()->indexOfIteration(1).data(ui::TimelineModel::IsAcceptedRole).toBool();
        },
        30000));
    QVERIFY(QFile::exists(exportDir + QStringLiteral("/CMakeLists.txt")));
    QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("exported to")),
             qPrintable(w->statusBar()->currentMessage()));
    QVERIFY(w->action(QStringLiteral("accept"))->isEnabled());

    // A refused export (the folder is not empty now) comes back with the reason.
    QSignalSpy failed(app.bridge(), &ui::AgentBridge::exportFailed);
    emit w->acceptRequested(1, exportDir);
    QVERIFY(waitFor([&] { return failed.count() == 1; }, 30000));
    QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("was not exported")),
             qPrintable(w->statusBar()->currentMessage()));

    w->action(QStringLiteral("stop"))->trigger();
    QVERIFY(loop.waitUntilDone(std::chrono::seconds(120)));
    QTest::qWait(200);
    QVERIFY(!w->action(QStringLiteral("step"))->isEnabled());
    QVERIFY(!w->action(QStringLiteral("start"))->isEnabled());
  }
};

QTEST_MAIN(AgentBridgeTest)
#include "AgentBridgeTest.moc"
