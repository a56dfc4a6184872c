// SPDX-License-Identifier: MIT
// The latency chart names the model's expected error of its estimates (docs/calibration.md).
#include <QtTest/QtTest>

#include "ui/LatencyChart.h"

class LatencyChartTest : public QObject {
  Q_OBJECT
 private slots:
  void namesTheExpectedErrorOfEstimates() {
    kwb::ui::LatencyChart chart;
    chart.setLatencies({12.4, 10.1}, std::nullopt);
    QCOMPARE(chart.candidateLabel(), QStringLiteral("candidate"));
    chart.setExpectedErrorPct(20.0);
    QCOMPARE(chart.candidateLabel(), QStringLiteral("candidate (emulator estimate \u00b1 20 %)"));
    QCOMPARE(chart.pointCount(), 2);
    chart.setExpectedErrorPct(std::nullopt);  // a device measurement: no model error to quote
    QCOMPARE(chart.candidateLabel(), QStringLiteral("candidate"));
  }
};

QTEST_MAIN(LatencyChartTest)
#include "LatencyChartTest.moc"
