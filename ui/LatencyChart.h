// SPDX-License-Identifier: MIT
#pragma once
// Latency of each iteration (emulator estimate or device measurement) against the baseline and the
// roofline floor (the fastest any kernel could be for that workload on that SoC). The scale is chosen
// for the measured points: every point sits inside the plot (never on its edge), the baseline is drawn
// when there is one, and a floor far below the points is left off the scale and named in the title
// instead of squashing the points into a flat line at the top.

#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <optional>
#include <vector>

namespace kwb::ui {

class LatencyChart : public QChartView {
  Q_OBJECT
 public:
  explicit LatencyChart(QWidget* parent = nullptr);
  // One point per iteration, in iteration order; nullopt for iterations without a latency.
  // `floorUs`, when given, holds each iteration's roofline floor (same indexing as latencyUs).
  // `baselineLabel` names where the baseline comes from (the task's measurement, the first pass).
  void setLatencies(const std::vector<std::optional<double>>& latencyUs, std::optional<double> baselineUs,
                    const std::vector<std::optional<double>>& floorUs = {},
                    const QString& baselineLabel = {});
  // The model's expected error for the shown estimates (docs/calibration.md), named on the candidate
  // series ("emulator estimate ± 20 %"); nullopt for device measurements or an uncalibrated model.
  void setExpectedErrorPct(std::optional<double> pct);
  QString candidateLabel() const;
  int pointCount() const;
  int floorPointCount() const;
  int baselinePointCount() const;
  // True when the floor is drawn; false when it is far below the points and only named in the title.
  bool floorOnScale() const { return floorOnScale_; }
  QValueAxis* axisX() const { return axisX_; }
  QValueAxis* axisY() const { return axisY_; }

  // A floor this many times below the fastest point is left off the scale.
  static constexpr double kFloorOffScaleRatio = 4.0;

 private:
  QLineSeries* series_;
  QLineSeries* baseline_;
  QLineSeries* floor_;
  QValueAxis* axisX_;
  QValueAxis* axisY_;
  bool floorOnScale_ = true;
};

}  // namespace kwb::ui
