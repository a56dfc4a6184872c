// SPDX-License-Identifier: MIT
#include "ui/SuiteFastPChart.h"

#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <algorithm>

#include "ui/CodeTheme.h"

namespace kwb::ui {

SuiteFastPChart::SuiteFastPChart(QWidget* parent) : QChartView(parent) {
  auto* chart = new QChart;
  chart->setTheme(isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  expert_ = new QLineSeries(chart);
  expert_->setName(tr("vs expert"));
  expert_->setPointsVisible(true);
  baseline_ = new QLineSeries(chart);
  baseline_->setName(tr("vs task baseline"));
  baseline_->setPointsVisible(true);
  chart->addSeries(expert_);
  chart->addSeries(baseline_);
  axisX_ = new QValueAxis(chart);
  axisX_->setTitleText(tr("p (times faster than the baseline)"));
  axisX_->setLabelFormat(QStringLiteral("%.1f"));
  axisY_ = new QValueAxis(chart);
  axisY_->setTitleText(tr("fast_p"));
  axisY_->setRange(0.0, 1.0);
  axisY_->setTickCount(6);
  axisY_->setLabelFormat(QStringLiteral("%.1f"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  for (QLineSeries* s : {expert_, baseline_}) {
    s->attachAxis(axisX_);
    s->attachAxis(axisY_);
  }
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setTitle(tr("fast_p over p"));
  setChart(chart);
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(320, 220);
}

void SuiteFastPChart::setMetrics(const suite::SuiteMetrics& metrics) {
  auto fill = [](QLineSeries* series, const std::map<double, std::optional<double>>& values) {
    QList<QPointF> points;
    for (const auto& [p, v] : values)
      if (v) points << QPointF(p, *v);
    series->replace(points);
    series->setVisible(!points.isEmpty());
    return !points.isEmpty();
  };
  const bool expert = fill(expert_, metrics.overall.fastVsExpert);
  const bool baseline = fill(baseline_, metrics.overall.fastVsTask);
  const double maxP = metrics.options.ps.empty()
                          ? 2.0
                          : *std::max_element(metrics.options.ps.begin(), metrics.options.ps.end());
  axisX_->setRange(0.0, std::max(1.0, maxP));
  QStringList missing;
  if (!expert) missing << tr("no expert measured");
  if (!baseline) missing << tr("no task states a baseline");
  chart()->setTitle(missing.isEmpty()
                        ? tr("fast_p over p (overall)")
                        : tr("fast_p over p (overall; %1)").arg(missing.join(QStringLiteral(", "))));
}

}  // namespace kwb::ui
