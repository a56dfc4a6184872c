// SPDX-License-Identifier: MIT
#include <QSignalSpy>
#include <QtTest>

#include "core/profile/PipelineTrace.h"
#include "ui/LatencyChart.h"
#include "ui/PipeUtilizationChart.h"
#include "ui/PipelineTraceView.h"

using namespace kwb;

class ProfileViewsTest : public QObject {
  Q_OBJECT
 private slots:
  void traceViewZoomsHoversAndActivatesSource() {
    ui::PipelineTraceView view;
    view.resize(900, 200);
    view.setTrace(readChromeTraceFile(KWB_FIXTURES_DIR "/trace/small_trace.json"));
    QCOMPARE(view.visibleBegin(), 0.0);
    QCOMPARE(view.visibleEnd(), 3.0);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    // Rows: [core 0 header, VECTOR, MTE2, process 1 header, lane 3]; MTE2 is row 2.
    const int y = 22 + 2 * 18 + 9;
    const double w = view.width() - 170 - 4;
    const int x = int(170 + 0.75 / 3.0 * w);  // middle of the first DataCopy (0..1.5 µs)
    QString lane;
    const TraceSlice* s = view.sliceAt(QPoint(x, y), &lane);
    QVERIFY(s);
    QCOMPARE(QString::fromStdString(s->name), QStringLiteral("DataCopy"));
    QVERIFY(lane.contains(QStringLiteral("MTE2")));
    QSignalSpy activated(&view, &ui::PipelineTraceView::sourceActivated);
    QTest::mouseDClick(&view, Qt::LeftButton, {}, QPoint(x, y));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().first().toString(), QStringLiteral("kernel.cpp:44"));
    view.zoom(2.0, 1.5);
    QCOMPARE(view.visibleBegin(), 0.75);
    QCOMPARE(view.visibleEnd(), 2.25);
    QVERIFY(view.grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/pipeline_trace.png")));
    view.resetZoom();
    QCOMPARE(view.visibleEnd(), 3.0);
  }

  // One iteration: its point lies inside the plot, not on the edge where half of it is cut off.
  void aSinglePointSitsInsideThePlot() {
    ui::LatencyChart chart;
    chart.setLatencies({12.5}, std::nullopt);
    QCOMPARE(chart.pointCount(), 1);
    QVERIFY2(chart.axisX()->min() < 1.0 && chart.axisX()->max() > 1.0,
             qPrintable(QStringLiteral("x %1..%2").arg(chart.axisX()->min()).arg(chart.axisX()->max())));
    QVERIFY(chart.axisY()->min() < 12.5 && chart.axisY()->max() > 12.5);
    // Several: the first and the last are inside too.
    chart.setLatencies({12.5, 9.0, 7.0}, std::nullopt);
    QVERIFY(chart.axisX()->min() < 1.0 && chart.axisX()->max() > 3.0);
  }

  // The baseline is drawn across the plot and on the scale, with where it comes from in the legend.
  void theBaselineIsDrawn() {
    ui::LatencyChart chart;
    chart.setLatencies({12.5, 9.0}, 20.0, {}, QStringLiteral("first pass (#1)"));
    QCOMPARE(chart.baselinePointCount(), 2);
    QVERIFY(chart.axisY()->max() > 20.0);
    bool named = false;
    for (auto* s : chart.chart()->series())
      named = named || s->name().contains(QStringLiteral("first pass (#1)"));
    QVERIFY(named);
    chart.setLatencies({12.5}, std::nullopt);
    QCOMPARE(chart.baselinePointCount(), 0);
  }

  // A roofline floor far below the points is named, not drawn: the points keep most of the height.
  void aFloorFarBelowDoesNotFlattenThePoints() {
    ui::LatencyChart chart;
    chart.setLatencies({120.0, 110.0, 100.0}, std::nullopt, {0.8, 0.8, 0.8});
    QVERIFY(!chart.floorOnScale());
    QCOMPARE(chart.floorPointCount(), 0);
    const double range = chart.axisY()->max() - chart.axisY()->min();
    QVERIFY2((120.0 - 100.0) / range >= 0.4,
             qPrintable(QStringLiteral("points use %1 of the height").arg((120.0 - 100.0) / range)));
    bool named = false;
    for (auto* s : chart.chart()->series()) named = named || s->name().contains(QStringLiteral("0.8 µs"));
    QVERIFY(named);
    // A floor near the points stays on the scale.
    chart.setLatencies({12.0, 10.0}, std::nullopt, {6.0, 6.0});
    QVERIFY(chart.floorOnScale());
    QCOMPARE(chart.floorPointCount(), 2);
    QVERIFY(chart.axisY()->min() <= 6.0);
  }

  void utilisationChartShowsEveryPipe() {
    ui::PipeUtilizationChart chart;
    ProfileReport p;
    p.soc = "Ascend910B1";
    p.source = "emulator-model";
    p.bound = "mte2";
    p.pipes["vector"] = {120, 0.3};
    p.pipes["mte2"] = {380, 0.95};
    p.pipes["mte3"] = {100, 0.25};
    chart.setProfile(p);
    QCOMPARE(chart.pipeNames().size(), 3);
    QVERIFY(chart.chart()->title().contains(QStringLiteral("bound: mte2")));
    QVERIFY(chart.chart()->title().contains(QStringLiteral("emulator estimate")));
    chart.clearProfile();
    QVERIFY(chart.pipeNames().isEmpty());
  }
};

QTEST_MAIN(ProfileViewsTest)
#include "ProfileViewsTest.moc"
