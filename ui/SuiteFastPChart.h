// SPDX-License-Identifier: MIT
#pragma once
// The suite's fast_p curve (docs/suites.md, "The suite view"): over p, the share of samples whose fastest
// correct kernel is more than p times faster than the baseline, one line against the expert candidate
// and one against the tasks' stated baselines, taken from core/suite's overall metrics (the numbers the
// HTML report draws; nothing is recomputed here). A line whose baseline no task has is left out and the
// title says so.

#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include "core/suite/SuiteMetrics.h"

namespace kwb::ui {

class SuiteFastPChart : public QChartView {
  Q_OBJECT
 public:
  explicit SuiteFastPChart(QWidget* parent = nullptr);
  void setMetrics(const suite::SuiteMetrics& metrics);
  QLineSeries* expertSeries() const { return expert_; }
  QLineSeries* baselineSeries() const { return baseline_; }

 private:
  QLineSeries* expert_;
  QLineSeries* baseline_;
  QValueAxis* axisX_;
  QValueAxis* axisY_;
};

}  // namespace kwb::ui
