// SPDX-License-Identifier: MIT
// The main window's views as a newcomer meets them (issue 21, part C): comparing two chosen
// iterations, the first iteration's diff, the default layout and keeping the engineer's, the menus,
// the status bar, the starting point instead of the expert solution, and artifacts read off the GUI
// thread.
#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>
#include <filesystem>
#include <fstream>

#include "core/store/SessionStore.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/ConversationPanel.h"
#include "ui/DiffView.h"
#include "ui/ElidingStatusBar.h"
#include "ui/IterationArtifactLoader.h"
#include "ui/KernelEditor.h"
#include "ui/LatencyChart.h"
#include "ui/MainWindow.h"
#include "ui/PipelineTraceView.h"
#include "ui/TimelineModel.h"

using namespace kwb;

namespace {

Iteration makeIteration(int id, std::optional<int> parent, const std::string& source) {
  Iteration it;
  it.id = id;
  it.parentId = parent;
  it.state = IterationState::Done;
  it.verdict = Verdict::Pass;
  it.candidate.files["kernel.cpp"] = source;
  return it;
}

std::string lines(int tag, int n = 8) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "line " + std::to_string(i * tag) + "\n";
  return s;
}

Session fourIterations() {
  Session s;
  s.task.name = "add_custom";
  s.iterations = {makeIteration(1, std::nullopt, lines(1)), makeIteration(2, 1, lines(2)),
                  makeIteration(3, 2, lines(3)), makeIteration(4, 3, lines(4))};
  return s;
}

QPoint rowCentre(QTreeView* view, const QModelIndex& index) {
  return view->visualRect(index).center();
}

}  // namespace

class WorkbenchViewsTest : public QObject {
  Q_OBJECT
  QTemporaryDir settingsDir_;

 private slots:
  void initTestCase() { uitest::isolateSettings(settingsDir_.path()); }
  void init() { QSettings().clear(); }

  // Ctrl+click a second row: the diff shows exactly those two iterations (older on the left). A right
  // click does not move the selection, so the menu's "Diff … against …" compares the chosen pair.
  void ctrlClickComparesTheTwoChosenIterations() {
    ui::MainWindow w;
    w.showSession(fourIterations());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTreeView* view = w.timelineView();
    auto* tm = w.timelineModel();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rowCentre(view, tm->indexOfIteration(3)));
    QCOMPARE(w.selectedIteration(), std::optional<int>(3));
    QCOMPARE(w.diffView()->comparedIds(), (std::optional<std::pair<int, int>>({2, 3})));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier,
                      rowCentre(view, tm->indexOfIteration(1)));
    QCOMPARE(w.selectedTimelineIterations(), (std::vector<int>{1, 3}));
    QCOMPARE(w.diffView()->comparedIds(), (std::optional<std::pair<int, int>>({1, 3})));
    QVERIFY(w.diffView()->changedRowCount() > 0);
    QCOMPARE(w.rightTabs()->currentWidget(), static_cast<QWidget*>(w.diffTab()));

    // A plain click goes back to one iteration against its parent.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rowCentre(view, tm->indexOfIteration(4)));
    QCOMPARE(w.selectedTimelineIterations(), (std::vector<int>{4}));
    QCOMPARE(w.diffView()->comparedIds(), (std::optional<std::pair<int, int>>({3, 4})));

    // A right press on another row leaves the selection alone.
    QMouseEvent press(QEvent::MouseButtonPress, QPointF(rowCentre(view, tm->indexOfIteration(2))),
                      view->viewport()->mapToGlobal(QPointF(rowCentre(view, tm->indexOfIteration(2)))),
                      Qt::RightButton, Qt::RightButton, Qt::NoModifier);
    QApplication::sendEvent(view->viewport(), &press);
    QCOMPARE(w.selectedIteration(), std::optional<int>(4));
    QCOMPARE(w.selectedTimelineIterations(), (std::vector<int>{4}));
  }

  // Iteration 1 has no parent: its diff is against the task's starting point (everything new).
  void theFirstIterationIsDiffedAgainstTheStart() {
    ui::MainWindow w;
    w.showSession(fourIterations());
    w.selectIteration(1);
    QCOMPARE(w.diffView()->comparedIds(), (std::optional<std::pair<int, int>>({0, 1})));
    QCOMPARE(w.diffView()->changedRowCount(), 8);
    QVERIFY2(w.diffView()->title().contains(QStringLiteral("Task start")), qPrintable(w.diffView()->title()));
  }

  // The editor gets most of a 1600-pixel window and every timeline column is visible; what the engineer
  // drags is restored in the next window.
  void theEditorGetsMostOfTheWidthAndTheLayoutIsKept() {
    int draggedWidth = 0;
    {
      ui::MainWindow w;
      w.resize(1600, 950);
      Session s = fourIterations();
      for (auto& it : s.iterations) {
        it.profile = ProfileReport{};
        it.profile->totalUs = 12.5 + it.id;
        it.usage = LlmUsage{1200, 800, "model", "openai", 2500};
      }
      w.showSession(s);
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QTest::qWait(100);
      const int editorWidth = w.editor()->width();
      QVERIFY2(editorWidth > w.width() / 2,
               qPrintable(QStringLiteral("editor %1 of %2 px").arg(editorWidth).arg(w.width())));
      QTreeView* view = w.timelineView();
      const int columns = view->header()->length();
      QVERIFY2(
          columns <= view->viewport()->width(),
          qPrintable(
              QStringLiteral("columns %1 px, viewport %2 px").arg(columns).arg(view->viewport()->width())));
      QVERIFY(w.grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/layout_default.png")));
      auto* analysis = w.findChild<QDockWidget*>(QStringLiteral("analysisDock"));
      w.resizeDocks({analysis}, {700}, Qt::Horizontal);
      QTest::qWait(50);
      draggedWidth = analysis->width();
      w.close();
    }
    ui::MainWindow again;
    again.resize(1600, 950);
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QTest::qWait(100);
    auto* analysis = again.findChild<QDockWidget*>(QStringLiteral("analysisDock"));
    QVERIFY2(std::abs(analysis->width() - draggedWidth) <= 4,
             qPrintable(QStringLiteral("restored %1, dragged %2").arg(analysis->width()).arg(draggedWidth)));
    // Reset the layout goes back to the default.
    again.action(QStringLiteral("resetLayout"))->trigger();
    QTest::qWait(50);
    QVERIFY(again.editor()->width() > again.width() / 2);
  }

  // View toggles the docks, Help ▸ About names the version, the trace button says what it does.
  void viewAndHelpMenus() {
    ui::MainWindow w;
    QStringList menus;
    for (QAction* a : w.menuBar()->actions()) menus << a->text().remove(QLatin1Char('&'));
    QVERIFY2(menus.contains(QStringLiteral("View")) && menus.contains(QStringLiteral("Help")),
             qPrintable(menus.join(QLatin1Char(','))));
    QMenu* view = nullptr;
    for (QAction* a : w.menuBar()->actions())
      if (a->text().remove(QLatin1Char('&')) == QStringLiteral("View")) view = a->menu();
    QVERIFY(view);
    QStringList items;
    for (QAction* a : view->actions()) items << a->text();
    for (const char* dock : {"Iterations", "Feedback", "Analysis"})
      QVERIFY2(items.contains(QString::fromLatin1(dock)), qPrintable(items.join(QLatin1Char(','))));
    QVERIFY(w.action(QStringLiteral("about")));
    QVERIFY(w.aboutText().contains(QStringLiteral(KWB_VERSION)));
    auto* save = w.findChild<QPushButton*>(QStringLiteral("saveTraceButton"));
    QVERIFY(save);
    QCOMPARE(save->text(), QStringLiteral("Save trace for Perfetto…"));
    QVERIFY(save->toolTip().contains(QStringLiteral("ui.perfetto.dev")));
    // A menu added later (WorkbenchApp's Tools) goes before Help, which stays last.
    w.menuBar()->addMenu(QStringLiteral("Tools"));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.menuBar()->actions().last()->text().remove(QLatin1Char('&')), QStringLiteral("Help"));
  }

  // A long message is elided before the agent state label, with a gap, instead of running into it.
  void longStatusMessagesStayClearOfTheStateLabel() {
    ui::MainWindow w;
    w.resize(1600, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setAgentStatus(QStringLiteral("generating"), {});
    const QString longText = QStringLiteral("M").repeated(600);
    w.statusBar()->showMessage(longText);
    QTest::qWait(50);
    const QImage img = w.statusBar()->grab().toImage();
    const int labelX = w.stateLabel()->geometry().x();
    const QRgb background = img.pixel(labelX - 2, img.height() - 3);
    // The strip just left of the label holds no text.
    for (int x = labelX - ui::ElidingStatusBar::kGap + 2; x < labelX - 2; ++x)
      for (int y = 2; y < img.height() - 2; ++y)
        QVERIFY2(img.pixel(x, y) == background || qGray(img.pixel(x, y)) >= qGray(background) - 10,
                 qPrintable(QStringLiteral("text at x=%1 (label at %2)").arg(x).arg(labelX)));
    auto* bar = qobject_cast<ui::ElidingStatusBar*>(w.statusBar());
    QVERIFY(bar);
    QVERIFY(bar->shownMessage().endsWith(QChar(0x2026)));  // elided, the whole text in the tooltip
  }

  // Opening a task shows what the agent starts from, not the expert solution (a spoiler); that is
  // shown only on request.
  void theTaskStartingPointNotTheExpertSolution() {
    ui::MainWindow w;
    QVERIFY(w.openTask(QStringLiteral(KWB_SOURCE_DIR "/resources/tasks/add_custom")));
    const QString start = w.editor()->text();
    QVERIFY2(!start.contains(QStringLiteral("__global__")), qPrintable(start.left(400)));
    QVERIFY(start.contains(QStringLiteral("no kernel yet")));
    QAction* expert = w.action(QStringLiteral("showExpert"));
    QVERIFY(expert && expert->isEnabled());
    expert->trigger();
    QVERIFY(uitest::waitFor([&] { return w.editor()->text().contains(QStringLiteral("__global__")); }, 5000));
    QCOMPARE(w.shownFile(), QStringLiteral("expert_candidate.cpp"));
  }

  // The trace and the transcript are read on a worker and cached; a result for an iteration no longer
  // selected is not applied. The trace says which verification case it shows.
  void artifactsAreReadOffTheGuiThread() {
    QTemporaryDir dir;
    namespace fs = std::filesystem;
    const fs::path root = dir.path().toStdString();
    Session s = fourIterations();
    for (int id : {1, 2}) {
      const fs::path it = root / "iterations" / SessionStore::iterationFolderName(id);
      fs::create_directories(it);
      fs::copy_file(KWB_FIXTURES_DIR "/trace/small_trace.json", it / "trace.json");
      std::ofstream(it / "prompt.md") << "prompt of " << id;
      std::ofstream(it / "reply.md") << "reply of " << id;
    }
    s.iterations[1].profile = ProfileReport{};
    s.iterations[1].profile->totalUs = 30.0;
    s.iterations[1].profile->extra["slowest_case"] = {{"name", "large_aligned"}, {"total_us", 12.0}};
    s.iterations[1].profile->extra["cases"] =
        nlohmann::json::array({{{"name", "a"}}, {{"name", "b"}}, {{"name", "c"}}});
    ui::MainWindow w;
    w.showSession(s, root);  // selects iteration 4: nothing stored
    w.selectIteration(2);
    QVERIFY(uitest::waitFor([&] { return !w.traceView()->trace().processes.empty(); }, 5000));
    QVERIFY(w.artifactLoader()->isCached(2));
    QVERIFY2(w.traceCaseLabel()->text().contains(QStringLiteral("“large_aligned”, the slowest of the 3")),
             qPrintable(w.traceCaseLabel()->text()));
    // Selecting 1 and moving to 3 before 1's read ends: 1's trace must not land on 3.
    w.selectIteration(1);
    w.selectIteration(3);
    w.artifactLoader()->waitForIdle();
    QTest::qWait(50);
    QCOMPARE(w.selectedIteration(), std::optional<int>(3));
    QVERIFY(w.traceView()->trace().processes.empty());
    // The pure reader, on the folder directly.
    const auto read = ui::IterationArtifactLoader::read(root / "iterations" / "0001", s.iterations[0]);
    QVERIFY(read.trace);
    QCOMPARE(read.prompt, QStringLiteral("prompt of 1"));
    QCOMPARE(read.reply, QStringLiteral("reply of 1"));
  }

  // No task has a measured baseline: the chart and the Speedup column use the agent's (the first
  // passing iteration), so the baseline is drawn once a candidate passes.
  void theBaselineIsTheFirstPassWithoutAMeasuredOne() {
    ui::MainWindow w;
    Session s = fourIterations();
    s.iterations[0].verdict = Verdict::WrongAnswer;
    for (auto& it : s.iterations) {
      it.profile = ProfileReport{};
      it.profile->totalUs = 40.0 - 5.0 * it.id;
    }
    w.showSession(s);
    QCOMPARE(w.latencyChart()->baselinePointCount(), 2);
    QCOMPARE(w.timelineModel()->indexOfIteration(4, ui::TimelineModel::SpeedupColumn).data().toString(),
             QStringLiteral("1.50×"));  // 30 µs (iteration 2, the first pass) / 20 µs
    QVERIFY(!w.timelineModel()->indexOfIteration(1, ui::TimelineModel::SpeedupColumn).data().isValid());
  }

  // A new branch re-lays the timeline out; the view stays expanded and keeps its selection.
  void aNewBranchKeepsTheSelection() {
    ui::MainWindow w;
    w.showSession(fourIterations());
    w.selectIteration(2);
    Iteration branch = makeIteration(5, 1, lines(5));
    branch.state = IterationState::Generating;
    branch.verdict.reset();
    w.updateIteration(branch);  // not final: the selection stays on 2
    QCOMPARE(w.selectedIteration(), std::optional<int>(2));
    QCOMPARE(w.timelineView()->currentIndex().siblingAtColumn(0), w.timelineModel()->indexOfIteration(2));
    QVERIFY(w.timelineView()->isExpanded(w.timelineModel()->indexOfIteration(1)));
  }
};

QTEST_MAIN(WorkbenchViewsTest)
#include "WorkbenchViewsTest.moc"
