// SPDX-License-Identifier: MIT
#include "ui/SuiteIterationsChart.h"

#include <QtCharts/QBarSeries>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <algorithm>
#include <cmath>
#include <map>

#include "ui/CodeTheme.h"

namespace kwb::ui {

SuiteIterationsChart::SuiteIterationsChart(QWidget* parent) : QChartView(parent) {
  auto* chart = new QChart;
  chart->setTheme(isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  set_ = new QBarSet(tr("samples"));
  auto* series = new QBarSeries(chart);
  series->append(set_);
  chart->addSeries(series);
  axisX_ = new QBarCategoryAxis(chart);
  axisX_->setTitleText(tr("evaluated iterations to the first correct kernel"));
  axisY_ = new QValueAxis(chart);
  axisY_->setTitleText(tr("samples"));
  axisY_->setLabelFormat(QStringLiteral("%d"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  series->attachAxis(axisX_);
  series->attachAxis(axisY_);
  chart->legend()->hide();
  chart->setTitle(tr("Iterations to first correct"));
  setChart(chart);
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(320, 220);
}

void SuiteIterationsChart::setSamples(const std::vector<suite::SampleOutcome>& samples) {
  std::map<int, int> byIterations;
  int never = 0;
  int maxIterations = 0;
  for (const auto& s : samples) {
    if (s.iterationsToCorrect) {
      ++byIterations[*s.iterationsToCorrect];
      maxIterations = std::max(maxIterations, *s.iterationsToCorrect);
    } else if (s.finished) {
      ++never;
    }
  }
  QStringList labels;
  QList<qreal> values;
  // Every count from 1 to the largest, so the bars read as a histogram (gaps are zero bars).
  for (int i = 1; i <= maxIterations; ++i) {
    labels << QString::number(i);
    const auto it = byIterations.find(i);
    values << (it == byIterations.end() ? 0 : it->second);
  }
  labels << tr("never");
  values << never;
  set_->remove(0, set_->count());
  set_->append(values);
  axisX_->clear();
  axisX_->append(labels);
  const qreal top = *std::max_element(values.begin(), values.end());
  // Whole-sample ticks: a tick every 1, 2, 5, 10, … samples, so no label is a rounded fraction.
  int step = 1;
  while (top / step > 8) step = step == 1 ? 2 : (step % 5 == 0 ? step * 2 : step * 5 / 2);
  const int ticks = int(std::ceil(std::max<qreal>(1, top) / step));
  axisY_->setRange(0, ticks * step);
  axisY_->setTickCount(ticks + 1);
}

QStringList SuiteIterationsChart::categories() const {
  return axisX_->categories();
}

QList<int> SuiteIterationsChart::counts() const {
  QList<int> out;
  for (int i = 0; i < set_->count(); ++i) out << int(set_->at(i));
  return out;
}

}  // namespace kwb::ui
