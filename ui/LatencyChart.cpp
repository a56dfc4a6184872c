// SPDX-License-Identifier: MIT
#include "ui/LatencyChart.h"

#include "ui/CodeTheme.h"

#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>

namespace kwb::ui {

LatencyChart::LatencyChart(QWidget* parent) : QChartView(parent) {
  auto* chart = new QChart;
  chart->setTheme(isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->setTitle(tr("Latency per iteration (µs)"));
  chart->legend()->setAlignment(Qt::AlignBottom);
  series_ = new QLineSeries(chart);
  series_->setName(tr("candidate"));
  series_->setPointsVisible(true);
  baseline_ = new QLineSeries(chart);
  baseline_->setName(tr("baseline"));
  QPen dashed = baseline_->pen();
  dashed.setStyle(Qt::DashLine);
  dashed.setColor(QColor(140, 140, 140));  // readable on the light and the dark chart theme
  baseline_->setPen(dashed);
  floor_ = new QLineSeries(chart);
  floor_->setName(tr("roofline floor"));
  QPen dotted = floor_->pen();
  dotted.setStyle(Qt::DotLine);
  dotted.setWidthF(2.0);
  dotted.setColor(QColor(214, 120, 30));
  floor_->setPen(dotted);
  chart->addSeries(series_);
  chart->addSeries(baseline_);
  chart->addSeries(floor_);
  axisX_ = new QValueAxis(chart);
  axisX_->setTitleText(tr("iteration"));
  axisX_->setLabelFormat(QStringLiteral("%d"));
  axisY_ = new QValueAxis(chart);
  axisY_->setTitleText(tr("µs"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  for (auto* s : {series_, baseline_, floor_}) {
    s->attachAxis(axisX_);
    s->attachAxis(axisY_);
  }
  setChart(chart);
  setRenderHint(QPainter::Antialiasing);
  setLatencies({}, std::nullopt);
}

void LatencyChart::setLatencies(const std::vector<std::optional<double>>& latencyUs,
                                std::optional<double> baselineUs,
                                const std::vector<std::optional<double>>& floorUs) {
  QList<QPointF> points;
  double maxY = baselineUs.value_or(1.0);
  for (size_t i = 0; i < latencyUs.size(); ++i) {
    if (!latencyUs[i]) continue;
    points.append(QPointF(double(i + 1), *latencyUs[i]));
    maxY = std::max(maxY, *latencyUs[i]);
  }
  series_->replace(points);
  QList<QPointF> floors;
  for (size_t i = 0; i < floorUs.size(); ++i)
    if (floorUs[i] && *floorUs[i] > 0) {
      floors.append(QPointF(double(i + 1), *floorUs[i]));
      maxY = std::max(maxY, *floorUs[i]);
    }
  floor_->replace(floors);
  const double lastX = std::max<double>(2.0, double(latencyUs.size()));  // a degenerate range draws no ticks
  if (baselineUs)
    baseline_->replace({QPointF(1.0, *baselineUs), QPointF(lastX, *baselineUs)});
  else
    baseline_->clear();
  axisX_->setRange(1.0, lastX);
  // Integer ticks while they fit; beyond that let Qt place them.
  const int n = int(lastX);
  if (n <= 12) {
    axisX_->setTickType(QValueAxis::TicksFixed);
    axisX_->setTickCount(std::max(2, n));
  } else {
    axisX_->applyNiceNumbers();
  }
  axisY_->setRange(0.0, maxY * 1.15);
}

int LatencyChart::pointCount() const {
  return int(series_->count());
}

int LatencyChart::floorPointCount() const {
  return int(floor_->count());
}

}  // namespace kwb::ui
