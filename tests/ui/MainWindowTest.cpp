// SPDX-License-Identifier: MIT
#include <QImage>
#include <QtTest>

#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>

#include "tests/ui/UiTestSupport.h"
#include "ui/ConstraintsPanel.h"
#include "ui/DiffView.h"
#include "ui/KernelEditor.h"
#include "ui/LatencyChart.h"
#include "ui/MainWindow.h"

class MainWindowTest : public QObject {
  Q_OBJECT
  QTemporaryDir settingsDir_;  // the window keeps its layout in QSettings: never the user's

 private slots:
  void initTestCase() { kwb::uitest::isolateSettings(settingsDir_.path()); }

  void opensBuiltInTaskAndRendersNonEmptyScreenshot() {
    kwb::ui::MainWindow w;
    QVERIFY(w.openTask(QStringLiteral(KWB_SOURCE_DIR "/resources/tasks/add_custom")));
    QVERIFY(!w.editor()->text().isEmpty());
    w.latencyChart()->setLatencies({12.5, 9.0, std::nullopt, 7.25}, 10.0, {2.0, 2.0, std::nullopt, 2.0});
    QCOMPARE(w.latencyChart()->pointCount(), 3);
    QCOMPARE(w.latencyChart()->floorPointCount(), 3);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QImage shot = w.grab().toImage();
    QVERIFY(!shot.isNull());
    QVERIFY(shot.width() > 200 && shot.height() > 200);
    // A blank window would be one colour; a rendered editor and chart have many.
    QSet<QRgb> colours;
    for (int y = 0; y < shot.height(); y += 7)
      for (int x = 0; x < shot.width(); x += 7) colours.insert(shot.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QStringLiteral("only %1 colours").arg(colours.size())));
    QVERIFY(shot.save(QStringLiteral(KWB_TEST_OUT_DIR "/main_window.png")));
  }

  void comparesAnyTwoIterationsAndCountsWorkingTime() {
    kwb::ui::MainWindow w;
    kwb::Session s;
    s.task.name = "add_custom";
    for (int id = 1; id <= 3; ++id) {
      kwb::Iteration it;
      it.id = id;
      if (id > 1) it.parentId = id - 1;
      it.state = kwb::IterationState::Done;
      it.verdict = kwb::Verdict::Pass;
      std::string src;
      for (int line = 0; line < 10; ++line) src += "line " + std::to_string(line * id) + "\n";
      it.candidate.files["kernel.cpp"] = src;
      s.iterations.push_back(it);
    }
    w.showSession(s);
    QCOMPARE(w.selectedIteration(), std::optional<int>(3));
    w.compareIterations(1, 3);
    QVERIFY(w.diffView()->changedRowCount() > 0);
    QCOMPARE(w.rightTabs()->currentWidget(), static_cast<QWidget*>(w.diffTab()));

    QCOMPARE(w.elapsedText(), QStringLiteral("0:00 elapsed"));
    w.setAgentStatus(QStringLiteral("generating"), {});
    QTest::qWait(1100);
    w.setAgentStatus(QStringLiteral("paused"), {});
    const QString paused = w.elapsedText();
    QCOMPARE(paused, QStringLiteral("0:01 elapsed"));
    QTest::qWait(1100);
    QCOMPARE(w.elapsedText(), paused);  // paused time does not count
  }

  // Rejections are linked to constraints by the diagnostic's constraint id: "constraint 12" in a
  // message is not a rejection by constraint 1.
  void constraintRejectionsAreCountedById() {
    kwb::ui::MainWindow w;
    kwb::Session s;
    s.task.name = "add_custom";
    kwb::Constraint one = kwb::Constraint::fixParameter("BUFFER_NUM", 2);
    one.id = 1;
    kwb::Constraint twelve = kwb::Constraint::fixParameter("TILE_LENGTH", 128);
    twelve.id = 12;
    s.constraints = {one, twelve};
    for (int id = 1; id <= 2; ++id) {
      kwb::Iteration it;
      it.id = id;
      it.state = kwb::IterationState::Done;
      it.verdict = kwb::Verdict::Rejected;
      it.candidate.files["kernel.cpp"] = "// k\n";
      kwb::Diagnostic d;
      d.source = "policy";
      d.category = "policy-violation";
      d.message = "fixed parameter TILE_LENGTH must be 128 (constraint 12), the candidate sets it to 64";
      d.constraintId = 12;
      it.diagnostics = {d, d};  // twice in one iteration: still one rejected iteration
      s.iterations.push_back(it);
    }
    w.showSession(s);
    auto* panel = w.constraintsPanel();
    QVERIFY2(!panel->itemText(0).contains(QStringLiteral("rejected")), qPrintable(panel->itemText(0)));
    QVERIFY2(panel->itemText(1).contains(QStringLiteral("rejected 2 candidates")),
             qPrintable(panel->itemText(1)));
    w.setConstraints(s.constraints);
    QVERIFY2(!panel->itemText(0).contains(QStringLiteral("rejected")), qPrintable(panel->itemText(0)));
    QVERIFY2(panel->itemText(1).contains(QStringLiteral("rejected 2 candidates")),
             qPrintable(panel->itemText(1)));
  }

  // The editor shows the candidate's primary file by the evaluator's rule, not the first by name.
  void theEditorShowsThePrimaryFile() {
    kwb::ui::MainWindow w;
    kwb::Session s;
    s.task.name = "add_custom";
    kwb::Iteration it;
    it.id = 1;
    it.state = kwb::IterationState::Done;
    it.candidate.files["add_custom_tiling.h"] = "#pragma once\n";
    it.candidate.files["kernel.cpp"] =
        "#include \"add_custom_tiling.h\"\nextern \"C\" __global__ __aicore__ void add_custom() {}\n";
    s.iterations.push_back(it);
    w.showSession(s);
    QCOMPARE(w.shownFile(), QStringLiteral("kernel.cpp"));
    QVERIFY(w.editor()->text().contains(QStringLiteral("__global__")));
  }

  void missingTaskFolderIsReportedNotFatal() {
    kwb::ui::MainWindow w;
    QVERIFY(!w.openTask(QStringLiteral("/nonexistent/task")));
    QVERIFY(w.shownFile().isEmpty());
  }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
