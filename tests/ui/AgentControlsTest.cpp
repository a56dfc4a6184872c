// SPDX-License-Identifier: MIT
// The agent controls and the editor as the engineer meets them, on a window driven through its update
// slots (no agent loop): which controls are enabled in each agent state, Accept refusing before it asks
// for a folder, a paused iteration shown paused, the verify mark of a failed run, Run this edit while
// the agent streams, the engineer's edit kept when the agent streams or another iteration is selected,
// pins that keep the cursor, a lock ending at column 0, and rejection counts during a live session.
#include <QAction>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTreeView>
#include <QtTest>

#include "ui/ConstraintsPanel.h"
#include "ui/ConversationPanel.h"
#include "ui/DiagnosticsModel.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/KernelEditor.h"
#include "ui/MainWindow.h"
#include "ui/TimelineModel.h"

using namespace kwb;

namespace {

std::string numberedSource(int lines, const std::string& tag) {
  std::string src;
  for (int i = 1; i <= lines; ++i) src += "// " + tag + " line " + std::to_string(i) + "\n";
  return src;
}

Iteration doneIteration(int id, std::optional<int> parent, Verdict verdict, const std::string& source) {
  Iteration it;
  it.id = id;
  it.parentId = parent;
  it.state = IterationState::Done;
  it.verdict = verdict;
  it.candidate.origin = Origin::Agent;
  it.candidate.files["kernel.cpp"] = source;
  return it;
}

Session twoIterations() {
  Session s;
  s.task.name = "add_custom";
  s.iterations.push_back(doneIteration(1, std::nullopt, Verdict::CompileError, numberedSource(40, "one")));
  s.iterations.push_back(doneIteration(2, 1, Verdict::Pass, numberedSource(40, "two")));
  return s;
}

bool enabled(const ui::MainWindow& w, const char* key) {
  return w.action(QString::fromLatin1(key))->isEnabled();
}

QString tip(const ui::MainWindow& w, const char* key) {
  return w.action(QString::fromLatin1(key))->toolTip();
}

}  // namespace

class AgentControlsTest : public QObject {
  Q_OBJECT
 private slots:
  void eachControlIsEnabledExactlyWhenItCanAct() {
    ui::MainWindow w;
    w.showSession(twoIterations());
    for (const char* key : {"start", "pause", "step", "stop", "hint", "rollback", "accept", "runEdit"})
      QVERIFY2(!enabled(w, key), key);  // no agent connected

    w.setAgentAvailable(true, {});
    // A fresh loop: it can start or step; there is nothing to pause or stop.
    w.setAgentState(AgentState::Idle, std::nullopt, {});
    QVERIFY(enabled(w, "start") && enabled(w, "step") && enabled(w, "hint"));
    QVERIFY2(tip(w, "step").contains(QStringLiteral("run one iteration, then pause")),
             qPrintable(tip(w, "step")));
    QVERIFY(!enabled(w, "pause"));
    QVERIFY(!enabled(w, "stop"));
    QVERIFY(!enabled(w, "runEdit"));  // the editor holds no edit
    QVERIFY2(tip(w, "runEdit").contains(QStringLiteral("edit the kernel first")),
             qPrintable(tip(w, "runEdit")));

    w.setAgentState(AgentState::Compiling, 2, {});
    QVERIFY(!enabled(w, "start"));
    QVERIFY(enabled(w, "pause") && enabled(w, "step") && enabled(w, "stop"));

    w.setAgentState(AgentState::Paused, std::nullopt, {});
    QVERIFY(enabled(w, "start") && enabled(w, "step") && enabled(w, "stop"));
    QCOMPARE(w.action(QStringLiteral("start"))->text(), QStringLiteral("Resume"));
    QVERIFY(!enabled(w, "pause"));

    // While Step runs its iteration, another Step or Start has nothing to add; Pause ends the step.
    w.setStepping(true);
    QVERIFY(!enabled(w, "step") && !enabled(w, "start"));
    QVERIFY(enabled(w, "pause"));
    w.setStepping(false);

    w.setAgentState(AgentState::Finished, std::nullopt, QStringLiteral("target reached"));
    QVERIFY(enabled(w, "start") && enabled(w, "step"));
    QVERIFY(!enabled(w, "stop") && !enabled(w, "pause"));

    // After Stop nothing of the loop can act any more.
    w.setAgentState(AgentState::Stopped, std::nullopt, QStringLiteral("stopped"));
    for (const char* key : {"start", "pause", "step", "stop", "hint", "rollback", "runEdit"}) {
      QVERIFY2(!enabled(w, key), key);
      QVERIFY2(tip(w, key).contains(QStringLiteral("stopped")), qPrintable(tip(w, key)));
    }
    w.editor()->setText(QStringLiteral("// an edit\n"));
    QVERIFY(!enabled(w, "runEdit"));
  }

  void acceptNamesWhyAFailingIterationCannotBeExported() {
    ui::MainWindow w;
    w.showSession(twoIterations());
    w.setAgentAvailable(true, {});
    w.setAgentState(AgentState::Paused, std::nullopt, {});
    w.selectIteration(1);
    QVERIFY(!enabled(w, "accept"));
    QVERIFY2(tip(w, "accept").contains(QStringLiteral("did not pass (compile_error)")),
             qPrintable(tip(w, "accept")));
    w.selectIteration(2);
    QVERIFY(enabled(w, "accept"));
    // While it is exported, a second Accept waits.
    w.setExportInFlight(2, QStringLiteral("/tmp/somewhere"));
    QVERIFY(!enabled(w, "accept"));
    QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("Exporting iteration 2")));
    w.showExported(2, QStringLiteral("/tmp/somewhere"));
    QVERIFY(enabled(w, "accept"));
    QVERIFY(w.timelineModel()->indexOfIteration(2).data(ui::TimelineModel::IsAcceptedRole).toBool());
  }

  void aPausedIterationShowsPausedNotCompiling() {
    ui::MainWindow w;
    Session s = twoIterations();
    Iteration inFlight = doneIteration(3, 2, Verdict::Pass, numberedSource(10, "three"));
    inFlight.verdict.reset();
    inFlight.state = IterationState::Compiling;
    s.iterations.push_back(inFlight);
    w.showSession(s);
    w.setAgentAvailable(true, {});
    const auto status = [&] {
      return w.timelineModel()->indexOfIteration(3, ui::TimelineModel::StatusColumn).data().toString();
    };
    w.setAgentState(AgentState::Compiling, 3, {});
    QCOMPARE(status(), QStringLiteral("compiling…"));
    w.setAgentState(AgentState::Paused, std::nullopt, {});
    QVERIFY2(status().startsWith(QStringLiteral("paused")), qPrintable(status()));
    QVERIFY(!status().contains(QStringLiteral("…")));
    w.setAgentState(AgentState::Compiling, 3, {});
    QCOMPARE(status(), QStringLiteral("compiling…"));
  }

  void theVerifyMarkOfAFailedRunIsNoPass() {
    ui::TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Iteration it = doneIteration(1, std::nullopt, Verdict::RuntimeError, "// k\n");
    CompileResult c;
    c.ok = true;
    it.compile = c;
    RunResult r;
    r.status = RunStatus::Crash;
    it.run = r;
    VerifyReport v;  // the cases that ran matched; one case crashed
    v.verdict = Verdict::Pass;
    it.verify = v;
    model.upsertIteration(it);
    QCOMPARE(model.indexOfIteration(1, ui::TimelineModel::StagesColumn).data().toString(),
             QStringLiteral("✓ ✗ ✗"));
    const QString tip =
        model.indexOfIteration(1, ui::TimelineModel::StagesColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("verify: not every case ran")), qPrintable(tip));
  }

  void runThisEditIsOffWhileTheAgentStreamsIntoTheEditor() {
    ui::MainWindow w;
    w.showSession(twoIterations());
    w.setAgentAvailable(true, {});
    w.setAgentState(AgentState::Generating, 3, {});
    QVERIFY(!enabled(w, "runEdit"));
    w.appendStreamedText(3, QStringLiteral("Here is the kernel.\n```cpp kernel.cpp\n"));
    w.appendStreamedText(3, QStringLiteral("__aicore__ void k() {}\n"));
    QVERIFY(w.streamingIntoEditor());
    QVERIFY(w.editor()->text().contains(QStringLiteral("Here is the kernel")));
    QVERIFY2(!enabled(w, "runEdit"), "a half-streamed reply can be submitted as an edit");
    QVERIFY(w.editor()->isReadOnly());
    QVERIFY2(tip(w, "runEdit").contains(QStringLiteral("writing into the editor")),
             qPrintable(tip(w, "runEdit")));
    // The reply is complete: the iteration is shown and the editor is the engineer's again.
    Iteration three = doneIteration(3, 2, Verdict::Pass, numberedSource(12, "three"));
    three.state = IterationState::Compiling;
    three.verdict.reset();
    w.updateIteration(three);
    QVERIFY(!w.streamingIntoEditor());
    QVERIFY(!w.editor()->isReadOnly());
    QVERIFY(!enabled(w, "runEdit"));
    w.editor()->setText(QStringLiteral("// my edit\n"));
    QVERIFY(enabled(w, "runEdit"));
  }

  void aReplyStreamsOnWhileTheEngineerLooksElsewhere() {
    ui::MainWindow w;
    Session s = twoIterations();
    Diagnostic d;
    d.source = "compiler";
    d.category = "compile-error";
    d.severity = Severity::Error;
    d.line = 2;
    d.message = "broken";
    s.iterations[0].diagnostics = {d};
    w.showSession(s);
    w.setAgentAvailable(true, {});
    w.setAgentState(AgentState::Generating, 3, {});
    Iteration three;
    three.id = 3;
    three.parentId = 2;
    three.state = IterationState::Generating;
    w.updateIteration(three);  // IterationStarted comes before the first tokens
    w.selectIteration(1);
    w.appendStreamedText(3, QStringLiteral("Part one.\n"));
    QVERIFY(w.streamingIntoEditor());
    // The timeline points at the iteration being written, so a click on iteration 1 selects it.
    QCOMPARE(w.timelineView()->currentIndex().siblingAtColumn(0), w.timelineModel()->indexOfIteration(3));
    w.timelineView()->setCurrentIndex(w.timelineModel()->indexOfIteration(1));  // what a click does
    QVERIFY(!w.streamingIntoEditor());
    QVERIFY(!w.editor()->isReadOnly());
    QVERIFY(w.editor()->text().contains(QStringLiteral("one line 1")));
    w.appendStreamedText(3, QStringLiteral("Part two.\n"));
    QVERIFY(w.editor()->text().contains(QStringLiteral("one line 1")));
    // Selecting iteration 3 again shows the whole reply so far, still streaming.
    w.updateIteration(three);
    QCOMPARE(w.selectedIteration(), std::optional<int>(1));
    w.selectIteration(3);
    QVERIFY(w.streamingIntoEditor());
    QCOMPARE(w.diagnosticsPanel()->model()->rowCount(), 0);  // none of iteration 1's findings
    QVERIFY2(w.editor()->text().contains(QStringLiteral("Part one.")) &&
                 w.editor()->text().contains(QStringLiteral("Part two.")),
             qPrintable(w.editor()->text()));
    QVERIFY(w.editor()->isReadOnly());
    QVERIFY(!enabled(w, "runEdit"));
    w.appendStreamedText(3, QStringLiteral("Part three.\n"));
    QVERIFY(w.editor()->text().contains(QStringLiteral("Part three.")));
  }

  void theAgentNeverClearsTheEngineersEdit() {
    ui::MainWindow w;
    w.showSession(twoIterations());
    w.setAgentAvailable(true, {});
    w.setAgentState(AgentState::Paused, std::nullopt, {});
    w.selectIteration(2);
    const QString edit = QStringLiteral("// the engineer's unsaved edit\n") + w.editor()->text();
    w.editor()->setText(edit);
    QVERIFY(w.editorHoldsEdit());

    // The agent starts streaming: the edit stays, the reply goes to the conversation panel.
    w.setAgentState(AgentState::Generating, 3, {});
    w.appendStreamedText(3, QStringLiteral("Let me try double buffering.\n"));
    w.appendStreamedText(3, QStringLiteral("```cpp kernel.cpp\n// streamed\n"));
    QCOMPARE(w.editor()->text(), edit);
    QVERIFY(!w.streamingIntoEditor());
    QVERIFY(w.conversationPanel()->text().contains(QStringLiteral("double buffering")));
    QVERIFY(enabled(w, "runEdit"));  // the edit is the engineer's: it can run
    // Its iteration finishes: the timeline shows it, the editor keeps the edit.
    w.updateIteration(doneIteration(3, 2, Verdict::Pass, numberedSource(12, "three")));
    QCOMPARE(w.editor()->text(), edit);
    QVERIFY(w.timelineModel()->indexOfIteration(3).isValid());
    QCOMPARE(w.selectedIteration(), std::optional<int>(2));

    // Selecting another iteration sets the edit aside; Restore edit brings it back, still unsaved.
    QVERIFY(!w.action(QStringLiteral("restoreEdit"))->isEnabled());
    w.selectIteration(1);
    QVERIFY(w.editor()->text().contains(QStringLiteral("one line 1")));
    QVERIFY(w.hasSetAsideEdit());
    QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("set aside")));
    QVERIFY(w.action(QStringLiteral("restoreEdit"))->isEnabled());
    w.action(QStringLiteral("restoreEdit"))->trigger();
    QCOMPARE(w.editor()->text(), edit);
    QCOMPARE(w.selectedIteration(), std::optional<int>(2));
    QVERIFY(w.editorHoldsEdit());
    QVERIFY(!w.hasSetAsideEdit());
    QVERIFY(enabled(w, "runEdit"));

    // Run this edit submits exactly the edit, with the iteration it came from.
    QSignalSpy submitted(&w, &ui::MainWindow::runEditRequested);
    w.action(QStringLiteral("runEdit"))->trigger();
    QCOMPARE(submitted.count(), 1);
    QCOMPARE(submitted.at(0).at(1).toString(), edit);
    QCOMPARE(submitted.at(0).at(2).value<std::optional<int>>(), std::optional<int>(2));
  }

  void aRestoredEditKeepsItsIterationsDiagnostics() {
    ui::MainWindow w;
    Session s = twoIterations();
    Diagnostic d;
    d.source = "compiler";
    d.category = "compile-error";
    d.severity = Severity::Error;
    d.file = "kernel.cpp";
    d.line = 3;
    d.message = "'GetBlockIdxx' was not declared in this scope";
    s.iterations[0].diagnostics = {d};
    w.showSession(s);
    w.setAgentAvailable(true, {});
    w.selectIteration(1);
    QCOMPARE(w.editor()->shownDiagnosticCount(), 1);
    w.editor()->setText(w.editor()->text() + QStringLiteral("// fix\n"));
    w.selectIteration(2);
    w.restoreSetAsideEdit();
    QCOMPARE(w.selectedIteration(), std::optional<int>(1));
    QVERIFY(w.editor()->text().endsWith(QStringLiteral("// fix\n")));
    QCOMPARE(w.editor()->shownDiagnosticCount(), 1);
  }

  void aRetryIsShownUntilTheReplyStreamsAgain() {
    ui::MainWindow w;
    w.showSession(twoIterations());
    w.setAgentAvailable(true, {});
    w.setAgentState(AgentState::Generating, 3, {});
    w.showLlmRetry(3, QStringLiteral("Iteration 3: retrying (1/4) in 1 s: server: HTTP 503"));
    QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("retrying (1/4)")));
    QTest::qWait(50);
    QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("retrying (1/4)")));
    w.appendStreamedText(3, QStringLiteral("Here is"));
    QVERIFY2(!w.statusBar()->currentMessage().contains(QStringLiteral("retrying")),
             qPrintable(w.statusBar()->currentMessage()));
  }

  void pinningKeepsTheCursorAndTheScrollPosition() {
    ui::MainWindow w;
    Session s = twoIterations();
    s.iterations[1].candidate.files["kernel.cpp"] = numberedSource(300, "two");
    w.showSession(s);
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setAgentAvailable(true, {});
    w.editor()->setCursorPosition(200, 4);
    w.editor()->setFirstVisibleLine(180);
    const int firstVisible = w.editor()->firstVisibleLine();
    QVERIFY(firstVisible > 100);
    Constraint lock =
        Constraint::lockRegion("kernel.cpp", s.iterations[1].candidate.files["kernel.cpp"], 10, 12);
    lock.id = 1;
    w.setConstraints({lock});
    int line = -1, col = -1;
    w.editor()->getCursorPosition(&line, &col);
    QCOMPARE(line, 200);
    QCOMPARE(col, 4);
    QCOMPARE(w.editor()->firstVisibleLine(), firstVisible);
    QVERIFY(w.editor()->isLineLocked(10) && w.editor()->isLineLocked(12) && !w.editor()->isLineLocked(13));
  }

  void aSelectionEndingAtColumnZeroLocksOnlyTheLinesItCovers() {
    ui::MainWindow w;
    w.showSession(twoIterations());
    w.setAgentAvailable(true, {});
    QSignalSpy lock(&w, &ui::MainWindow::lockLinesRequested);
    w.editor()->setSelection(1, 0, 4, 0);  // lines 2-4 selected whole, the caret at the start of line 5
    w.constraintsPanel()->lockButton()->click();
    QCOMPARE(lock.count(), 1);
    QCOMPARE(lock.at(0).at(2).toInt(), 2);
    QCOMPARE(lock.at(0).at(3).toInt(), 4);
    QVERIFY(lock.at(0).at(1).toString().contains(QStringLiteral("two line 4")));
  }

  void rejectionCountsFollowTheLiveSession() {
    ui::MainWindow w;
    Session s = twoIterations();
    Constraint one = Constraint::fixParameter("BUFFER_NUM", 2);
    one.id = 1;
    s.constraints = {one};
    w.showSession(s);
    QVERIFY(!w.constraintsPanel()->itemText(0).contains(QStringLiteral("rejected")));
    Iteration rejected = doneIteration(3, 2, Verdict::Rejected, "// k\n");
    Diagnostic d;
    d.source = "policy";
    d.category = "policy-violation";
    d.message = "fixed parameter BUFFER_NUM must be 2";
    d.constraintId = 1;
    rejected.diagnostics = {d};
    w.updateIteration(rejected);
    QVERIFY2(w.constraintsPanel()->itemText(0).contains(QStringLiteral("rejected 1 candidate")),
             qPrintable(w.constraintsPanel()->itemText(0)));
  }
};

QTEST_MAIN(AgentControlsTest)
#include "AgentControlsTest.moc"
