// SPDX-License-Identifier: MIT
#include <QSignalSpy>
#include <QtTest>

#include "core/profile/PipelineTrace.h"
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
