// SPDX-License-Identifier: MIT
#include "ui/LatencyChart.h"

#include "ui/CodeTheme.h"

#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

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
                                const std::vector<std::optional<double>>& floorUs,
                                const QString& baselineLabel) {
  QList<QPointF> points;
  std::optional<double> lo, hi;  // the values the scale must show readably
  auto include = [&](double v) {
    lo = lo ? std::min(*lo, v) : v;
    hi = hi ? std::max(*hi, v) : v;
  };
  for (size_t i = 0; i < latencyUs.size(); ++i) {
    if (!latencyUs[i]) continue;
    points.append(QPointF(double(i + 1), *latencyUs[i]));
    include(*latencyUs[i]);
  }
  series_->replace(points);
  if (baselineUs && *baselineUs > 0) include(*baselineUs);

  QList<QPointF> floors;
  std::optional<double> lowestFloor;
  for (size_t i = 0; i < floorUs.size(); ++i)
    if (floorUs[i] && *floorUs[i] > 0) {
      floors.append(QPointF(double(i + 1), *floorUs[i]));
      lowestFloor = lowestFloor ? std::min(*lowestFloor, *floorUs[i]) : *floorUs[i];
    }
  // A floor far below every point would flatten them against the top: name it instead of drawing it.
  floorOnScale_ = !lowestFloor || !lo || *lowestFloor * kFloorOffScaleRatio >= *lo;
  if (floorOnScale_) {
    floor_->replace(floors);
    for (const auto& f : floors) include(f.y());
  } else {
    floor_->clear();
  }
  floor_->setName(floorOnScale_
                      ? tr("roofline floor")
                      : tr("roofline floor %1 µs (far below: off the scale)").arg(*lowestFloor, 0, 'g', 3));

  // Half an iteration of room on either side, so the first and the last point are never cut in half.
  // The tick interval comes before the range: the axis lays out its ticks on every change, and the new
  // range with the old interval (1 after an empty session) made one label per iteration, 10,000 of them,
  // in a layout quadratic in their number (docs/benchmarks.md, "10,000 iterations").
  const double lastX = std::max<double>(1.0, double(latencyUs.size()));
  const int n = int(lastX);
  axisX_->setTickType(QValueAxis::TicksDynamic);
  axisX_->setTickAnchor(1.0);
  axisX_->setTickInterval(n <= 12 ? 1.0 : std::ceil(double(n) / 10.0));
  axisX_->setRange(0.5, lastX + 0.5);
  if (baselineUs && *baselineUs > 0) {
    baseline_->replace({QPointF(0.5, *baselineUs), QPointF(lastX + 0.5, *baselineUs)});
    baseline_->setName(baselineLabel.isEmpty() ? tr("baseline") : tr("baseline: %1").arg(baselineLabel));
  } else {
    baseline_->clear();
    baseline_->setName(tr("baseline (none yet)"));
  }

  if (!lo) {
    axisY_->setRange(0.0, 1.0);
    return;
  }
  // From zero when the values are near it (the honest picture); otherwise from just below the lowest
  // value, so the differences between iterations stay visible.
  const double span = std::max(*hi - *lo, *hi * 0.1);
  double bottom = *lo - span * 0.15;
  if (bottom < *hi * 0.25) bottom = 0.0;
  axisY_->setRange(std::max(0.0, bottom), *hi + span * 0.15);
  axisY_->applyNiceNumbers();  // round tick labels; the range only grows
  if (axisY_->min() < 0.0) axisY_->setMin(0.0);
}

void LatencyChart::setExpectedErrorPct(std::optional<double> pct) {
  series_->setName(pct && *pct >= 0 ? tr("candidate (emulator estimate \u00b1 %1 %)").arg(*pct, 0, 'f', 0)
                                    : tr("candidate"));
}

QString LatencyChart::candidateLabel() const {
  return series_->name();
}

int LatencyChart::baselinePointCount() const {
  return int(baseline_->count());
}

int LatencyChart::pointCount() const {
  return int(series_->count());
}

int LatencyChart::floorPointCount() const {
  return int(floor_->count());
}

}  // namespace kwb::ui
