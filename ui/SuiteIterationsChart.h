// SPDX-License-Identifier: MIT
#pragma once
// How many evaluated iterations each sample took to reach its first correct kernel (docs/suites.md,
// "The suite view"): a histogram over the samples' SampleOutcome::iterationsToCorrect, the numbers the
// report's "to first correct" mean is taken over, plus one bar for the finished samples that never got
// a correct kernel.

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>
#include <vector>

#include "core/suite/SampleOutcome.h"

namespace kwb::ui {

class SuiteIterationsChart : public QChartView {
  Q_OBJECT
 public:
  explicit SuiteIterationsChart(QWidget* parent = nullptr);
  void setSamples(const std::vector<suite::SampleOutcome>& samples);
  // The bars as shown: category label ("1", "2", …, "never") and count.
  QStringList categories() const;
  QList<int> counts() const;

 private:
  QBarSet* set_;
  QBarCategoryAxis* axisX_;
  QValueAxis* axisY_;
};

}  // namespace kwb::ui
