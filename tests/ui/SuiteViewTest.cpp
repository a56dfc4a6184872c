// SPDX-License-Identifier: MIT
// The suite view over a suite folder made by the real `kwb suite run` (two tasks x two samples against
// the local scripted LLM server, on the emulator): the grid's verdicts, speedups and summary columns
// (QAbstractItemModelTester), the header and the plots from core/suite's metrics, double-clicking a
// sample opening its session in the main window, a damaged marker, report.json or plan shown as an
// error row, and a suite still running refreshing as samples finish.
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtCharts/QLineSeries>
#include <QtTest>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/suite/SuiteLayout.h"
#include "tests/support/LlmTestServer.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/MainWindow.h"
#include "ui/SuiteCompareModel.h"
#include "ui/SuiteFastPChart.h"
#include "ui/SuiteGridModel.h"
#include "ui/SuiteIterationsChart.h"
#include "ui/SuiteSnapshot.h"
#include "ui/SuiteView.h"
#include "ui/WorkbenchApp.h"

using namespace kwb;
using kwb::ui::SampleVerdict;
using kwb::ui::SuiteGridModel;
using kwb::uitest::waitFor;
namespace fs = std::filesystem;

namespace {

constexpr double kStatedBaselineUs = 50.0;

void writeText(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
}

SampleVerdict verdictAt(const SuiteGridModel& m, int row, int sample) {
  return SampleVerdict(
      m.index(row, SuiteGridModel::columnOfSample(sample)).data(SuiteGridModel::VerdictRole).toInt());
}

int rowOfTask(const SuiteGridModel& m, const QString& task) {
  for (int r = 0; r < m.taskCount(); ++r)
    if (m.index(r, 0).data().toString() == task) return r;
  return -1;
}

QString headerText(const SuiteGridModel& m, int column) {
  return m.headerData(column, Qt::Horizontal).toString();
}

// A copy of the suite folder the test may damage.
fs::path copySuite(const fs::path& from, const QTemporaryDir& into) {
  const fs::path to = fs::path(into.path().toStdString()) / "suite";
  fs::copy(from, to, fs::copy_options::recursive);
  return to;
}

bool waitShown(ui::SuiteView& view, int atLeast) {
  return waitFor([&] { return view.shownSnapshots() >= atLeast; }, 60000);
}

}  // namespace

class SuiteViewTest : public QObject {
  Q_OBJECT
  QTemporaryDir settingsDir_;
  QTemporaryDir work_;
  fs::path suite_;

 private slots:
  // One real suite for every test: add_custom (with a stated baseline, so both speedups show) gets a
  // kernel that passes, relu_custom the same add kernel, which it rejects.
  void initTestCase() {
    uitest::isolateSettings(settingsDir_.path());
    const fs::path root = work_.path().toStdString();
    // The sandbox runs candidates as another user, which must pass through the task folders
    // (docs/sandbox.md); QTemporaryDir makes its folder 0700.
    fs::permissions(root, fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::add);
    const fs::path tasks = root / "tasks";
    fs::create_directories(tasks);
    for (const char* t : {"add_custom", "relu_custom", "include"})
      fs::copy(fs::path(KWB_SOURCE_DIR) / "resources/tasks" / t, tasks / t, fs::copy_options::recursive);
    nlohmann::json task = nlohmann::json::parse(std::ifstream(tasks / "add_custom/task.json"));
    task["baseline"] = {{"latency_us", kStatedBaselineUs}, {"source", "SuiteViewTest: a stated baseline"}};
    writeText(tasks / "add_custom/task.json", task.dump(2));
    const nlohmann::json lesson = nlohmann::json::parse(
        std::ifstream(fs::path(KWB_SOURCE_DIR) / "resources/lessons/unaligned-tail/lesson.json"));
    testsupport::ScriptedReply reply;
    reply.text = lesson["steps"][1]["reply"].get<std::string>();
    testsupport::LlmTestServer server;
    server.setFallback(reply);
    suite_ = root / "suite";
    QProcess kwb;
    kwb.setProcessChannelMode(QProcess::MergedChannels);
    kwb.start(QStringLiteral(KWB_KWB_EXE), {QStringLiteral("suite"),
                                            QStringLiteral("run"),
                                            QString::fromStdString((tasks / "add_custom").string()),
                                            QString::fromStdString((tasks / "relu_custom").string()),
                                            QStringLiteral("--provider"),
                                            QStringLiteral("openai"),
                                            QStringLiteral("--base-url"),
                                            QString::fromStdString(server.baseUrl() + "/v1"),
                                            QStringLiteral("--model"),
                                            QStringLiteral("test-model"),
                                            QStringLiteral("--api-key-env"),
                                            QStringLiteral("KWB_SUITE_VIEW_NO_KEY"),
                                            QStringLiteral("--samples"),
                                            QStringLiteral("2"),
                                            QStringLiteral("--max-iterations"),
                                            QStringLiteral("1"),
                                            QStringLiteral("--workers"),
                                            QStringLiteral("2"),
                                            QStringLiteral("--seed"),
                                            QStringLiteral("3"),
                                            QStringLiteral("--out"),
                                            QString::fromStdString(suite_.string())});
    QVERIFY(kwb.waitForFinished(600000));
    QVERIFY2(kwb.exitStatus() == QProcess::NormalExit && kwb.exitCode() == 0,
             qPrintable(QString::fromUtf8(kwb.readAll())));
    QVERIFY(fs::exists(suite_ / "sessions/add_custom/sample-2.done.json"));
    const nlohmann::json expert =
        nlohmann::json::parse(std::ifstream(suite::expertResultFile(suite_, "add_custom")));
    QVERIFY2(expert.value("verdict", "") == "pass", expert.dump().c_str());
  }

  void gridShowsVerdictsSpeedupsAndSummaries() {
    SuiteGridModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(ui::readSuiteSnapshot(suite_));
    const ui::SuiteSnapshot& s = model.snapshot();
    QVERIFY2(s.error.empty(), s.error.c_str());
    QVERIFY(s.complete);
    QCOMPARE(model.taskCount(), 2);
    QCOMPARE(model.rowCount(), 2);  // no problems
    QCOMPARE(model.sampleCount(), 2);
    QCOMPARE(headerText(model, 1), QStringLiteral("sample 1"));
    QCOMPARE(headerText(model, 2), QStringLiteral("sample 2"));
    // correct@1, correct@2 (correct@5 needs 5 samples), fast_1 vs the expert and vs the stated baseline.
    QCOMPARE(model.columnCount(), 7);
    QCOMPARE(headerText(model, 3), QStringLiteral("correct@1"));
    QCOMPARE(headerText(model, 4), QStringLiteral("correct@2"));
    QCOMPARE(headerText(model, 5), QStringLiteral("fast_1 vs expert"));
    QCOMPARE(headerText(model, 6), QStringLiteral("fast_1 vs baseline"));
    const int add = rowOfTask(model, QStringLiteral("add_custom"));
    const int relu = rowOfTask(model, QStringLiteral("relu_custom"));
    QVERIFY(add >= 0 && relu >= 0);
    for (int k = 1; k <= 2; ++k) {
      QCOMPARE(verdictAt(model, add, k), SampleVerdict::Pass);
      const SampleVerdict v = verdictAt(model, relu, k);
      QVERIFY2(v == SampleVerdict::Fail || v == SampleVerdict::CompileError, ui::verdictName(v));
      const ui::SuiteCell& cell = s.cells[std::size_t(add)][std::size_t(k - 1)];
      QVERIFY(cell.bestUs && cell.speedupVsExpert && cell.speedupVsBaseline);
      QCOMPARE(*cell.speedupVsBaseline, kStatedBaselineUs / *cell.bestUs);
      QCOMPARE(*cell.speedupVsExpert, s.report->expertUs.at("add_custom") / *cell.bestUs);
      const QString text = model.index(add, k).data().toString();
      QVERIFY2(text.startsWith(QStringLiteral("pass\n")) && text.contains(QStringLiteral("× expert")) &&
                   text.contains(QStringLiteral("× baseline")),
               qPrintable(text));
      QCOMPARE(model.index(add, k).data(SuiteGridModel::SessionDirRole).toString().toStdString(),
               suite::sampleSessionDir(suite_, "add_custom", k).string());
    }
    QCOMPARE(model.index(add, 3).data().toString(), QStringLiteral("100%"));
    QCOMPARE(model.index(relu, 3).data().toString(), QStringLiteral("0%"));
    QCOMPARE(model.index(relu, 6).data().toString(), QStringLiteral("—"));  // relu states no baseline
  }

  void viewShowsHeaderAndPlotsFromTheMetrics() {
    ui::SuiteView view(QString::fromStdString(suite_.string()));
    view.show();
    QVERIFY(waitShown(view, 1));
    const QString header = view.header()->text();
    QVERIFY2(header.contains(QStringLiteral("emulator estimate")), qPrintable(header));
    QVERIFY2(header.contains(QStringLiteral("correct@1 50%")), qPrintable(header));
    QVERIFY2(header.contains(QStringLiteral("2 pass")), qPrintable(header));
    QVERIFY(!view.refreshing());  // every sample finished
    const suite::SuiteMetrics& m = view.gridModel()->snapshot().report->metrics;
    QLineSeries* expert = view.fastPChart()->expertSeries();
    QCOMPARE(expert->count(), int(m.options.ps.size()));
    for (int i = 0; i < expert->count(); ++i) {
      const QPointF p = expert->at(i);
      QCOMPARE(p.y(), *m.overall.fastVsExpert.at(p.x()));
    }
    QCOMPARE(view.fastPChart()->baselineSeries()->count(), int(m.options.ps.size()));
    // Both add_custom samples were correct at their first iteration; both relu_custom samples never.
    QCOMPARE(view.iterationsChart()->categories(),
             QStringList({QStringLiteral("1"), QStringLiteral("never")}));
    QCOMPARE(view.iterationsChart()->counts(), QList<int>({2, 2}));
  }

  void doubleClickOpensTheSampleSession() {
    QTemporaryDir sessions;
    ui::WorkbenchApp app(QStringLiteral(KWB_SOURCE_DIR "/resources"), sessions.path());
    app.window()->show();
    ui::SuiteView* view = app.openSuite(QString::fromStdString(suite_.string()));
    QVERIFY(waitShown(*view, 1));
    QSignalSpy opened(&app, &ui::WorkbenchApp::sessionOpenFinished);
    const int add = rowOfTask(*view->gridModel(), QStringLiteral("add_custom"));
    const QModelIndex cell = view->gridModel()->index(add, SuiteGridModel::columnOfSample(2));
    QTableView* grid = view->grid();
    grid->scrollTo(cell);
    const QPoint at = grid->visualRect(cell).center();
    // A double-click is a click, then the second press that Qt reports as a double-click.
    QTest::mouseClick(grid->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(grid->viewport(), Qt::LeftButton, {}, at);
    QVERIFY(waitFor([&] { return !opened.isEmpty(); }, 60000));
    const QString expected =
        QString::fromStdString(suite::sampleSessionDir(suite_, "add_custom", 2).string());
    QCOMPARE(opened.first().at(0).toString(), expected);
    QVERIFY(opened.first().at(1).toBool());
    QCOMPARE(app.sessionDir(), expected);
    QCOMPARE(app.window()->session().task.name, std::string("add_custom"));
    QVERIFY(!app.window()->session().iterations.empty());
  }

  // Untrusted folder contents: a marker that is not JSON, a marker of the wrong shape and a damaged
  // report.json are error cells and problem rows naming the file; the rest of the grid still shows.
  void damagedMarkersAndReportAreErrorRows() {
    QTemporaryDir tmp;
    const fs::path s = copySuite(suite_, tmp);
    writeText(suite::sampleDoneFile(s, "add_custom", 2), "{\"finish_reason\": ");
    writeText(suite::sampleDoneFile(s, "relu_custom", 1), "[1, 2, 3]");
    writeText(s / "report.json", "not json at all");
    SuiteGridModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(ui::readSuiteSnapshot(s));
    const ui::SuiteSnapshot& snap = model.snapshot();
    QVERIFY(snap.error.empty());
    const int add = rowOfTask(model, QStringLiteral("add_custom"));
    const int relu = rowOfTask(model, QStringLiteral("relu_custom"));
    QCOMPARE(verdictAt(model, add, 1), SampleVerdict::Pass);
    QCOMPARE(verdictAt(model, add, 2), SampleVerdict::Error);
    QCOMPARE(verdictAt(model, relu, 1), SampleVerdict::Error);
    QVERIFY(!snap.complete);
    const QString tip = model.index(add, 2).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("sample-2.done.json")), qPrintable(tip));
    QCOMPARE(model.rowCount(), 2 + 3);
    QStringList problems;
    for (int r = 2; r < model.rowCount(); ++r) {
      QVERIFY(model.index(r, 0).data(SuiteGridModel::ProblemRole).toBool());
      problems << model.index(r, 1).data().toString();
    }
    const QString all = problems.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("add_custom/sample-2.done.json")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("relu_custom/sample-1")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("report.json")), qPrintable(all));
    // The view over the same folder shows it without a crash, the problem rows spanning the grid.
    ui::SuiteView view(QString::fromStdString(s.string()));
    view.show();
    QVERIFY(waitShown(view, 1));
    QCOMPARE(view.grid()->columnSpan(2, 1), model.columnCount() - 1);
  }

  void unreadablePlanIsOneErrorRow() {
    QTemporaryDir tmp;
    const fs::path s = copySuite(suite_, tmp);
    writeText(s / suite::kSuitePlanFile, "{\"tasks\": 3}");
    SuiteGridModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(ui::readSuiteSnapshot(s));
    QVERIFY(!model.snapshot().error.empty());
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(model.index(0, 0).data(SuiteGridModel::ProblemRole).toBool());
    QVERIFY2(model.index(0, 1).data().toString().contains(QStringLiteral("suite.json")),
             qPrintable(model.index(0, 1).data().toString()));
    ui::SuiteView view(QString::fromStdString(s.string()));
    QVERIFY(waitShown(view, 1));
    QVERIFY(view.header()->text().contains(QStringLiteral("not a readable suite folder")));
  }

  // A vs B: core/suite's comparison rows for the overall row and each task both runs have; a folder
  // that is not a suite is a clear message, not an empty table.
  void compareShowsTwoRunsSideBySide() {
    QTemporaryDir tmp;
    const fs::path other = copySuite(suite_, tmp);
    // B lost add_custom's second sample: its correct@1 stays 1, the samples count drops.
    fs::remove_all(suite::sampleSessionDir(other, "add_custom", 2));
    fs::remove(suite::sampleDoneFile(other, "add_custom", 2));
    ui::SuiteView view(QString::fromStdString(suite_.string()));
    QVERIFY(waitShown(view, 1));
    QAbstractItemModelTester tester(view.compareModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy shown(&view, &ui::SuiteView::comparisonShown);
    view.compareWith(QString::fromStdString(other.string()));
    QVERIFY(waitFor([&] { return !shown.isEmpty(); }, 60000));
    QVERIFY(shown.first().at(0).toBool());
    ui::SuiteCompareModel* m = view.compareModel();
    QVERIFY(m->rowCount() > 0);
    bool sawSamples = false;
    for (int r = 0; r < m->rowCount(); ++r) {
      if (m->index(r, ui::SuiteCompareModel::GroupColumn).data().toString() != QStringLiteral("add_custom") ||
          m->index(r, ui::SuiteCompareModel::MetricColumn).data().toString() != QStringLiteral("samples"))
        continue;
      sawSamples = true;
      QCOMPARE(m->index(r, ui::SuiteCompareModel::AColumn).data().toString(), QStringLiteral("2"));
      QCOMPARE(m->index(r, ui::SuiteCompareModel::BColumn).data().toString(), QStringLiteral("1"));
      QCOMPARE(
          m->index(r, ui::SuiteCompareModel::DeltaColumn).data(ui::SuiteCompareModel::ValueRole).toDouble(),
          -1.0);
    }
    QVERIFY(sawSamples);
    QVERIFY(view.compareHeader()->text().contains(QStringLiteral("emulator estimate")));
    QCOMPARE(view.tabs()->currentIndex(), 1);

    shown.clear();
    view.compareWith(tmp.path() + QStringLiteral("/no-such-suite"));
    QVERIFY(waitFor([&] { return !shown.isEmpty(); }, 60000));
    QVERIFY(!shown.first().at(0).toBool());
    QVERIFY2(view.compareHeader()->text().startsWith(QStringLiteral("Cannot compare")),
             qPrintable(view.compareHeader()->text()));
    QCOMPARE(m->rowCount(), 0);
  }

  // A suite still running: a sample without a session is "not started", one without its marker
  // "unfinished"; the view keeps checking the folder and shows each sample as it finishes.
  void runningSuiteRefreshesAsSamplesFinish() {
    QTemporaryDir tmp;
    const fs::path s = copySuite(suite_, tmp);
    const fs::path aside = fs::path(tmp.path().toStdString()) / "aside";
    fs::create_directories(aside);
    const fs::path session = suite::sampleSessionDir(s, "relu_custom", 2);
    fs::rename(session, aside / "sample-2");
    fs::rename(suite::sampleDoneFile(s, "relu_custom", 2), aside / "sample-2.done.json");
    fs::rename(suite::sampleDoneFile(s, "add_custom", 2), aside / "add-sample-2.done.json");
    ui::SuiteView view(QString::fromStdString(s.string()));
    view.setRefreshInterval(100);
    view.show();
    QVERIFY(waitShown(view, 1));
    const SuiteGridModel& m = *view.gridModel();
    const int add = rowOfTask(m, QStringLiteral("add_custom"));
    const int relu = rowOfTask(m, QStringLiteral("relu_custom"));
    QCOMPARE(verdictAt(m, relu, 2), SampleVerdict::NotStarted);
    QCOMPARE(verdictAt(m, add, 2), SampleVerdict::Unfinished);
    QVERIFY(view.refreshing());
    QVERIFY(view.header()->text().contains(QStringLiteral("refreshing")));
    const int shown = view.shownSnapshots();
    QTest::qWait(500);  // nothing changed: the folder is checked, not shown again
    QCOMPARE(view.shownSnapshots(), shown);

    fs::rename(aside / "add-sample-2.done.json", suite::sampleDoneFile(s, "add_custom", 2));
    QVERIFY(waitFor([&] { return verdictAt(m, add, 2) == SampleVerdict::Pass; }, 30000));
    QCOMPARE(verdictAt(m, relu, 2), SampleVerdict::NotStarted);
    fs::rename(aside / "sample-2", session);
    fs::rename(aside / "sample-2.done.json", suite::sampleDoneFile(s, "relu_custom", 2));
    QVERIFY(waitFor([&] { return verdictAt(m, relu, 2) != SampleVerdict::NotStarted; }, 30000));
    QVERIFY(waitFor([&] { return !view.refreshing(); }, 30000));
    QVERIFY(view.gridModel()->snapshot().complete);
    QVERIFY(view.header()->text().contains(QStringLiteral("every sample finished")));
  }
};

QTEST_MAIN(SuiteViewTest)
#include "SuiteViewTest.moc"
