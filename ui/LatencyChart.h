// SPDX-License-Identifier: MIT
#pragma once
// Latency of each iteration (emulator estimate or device measurement) against the task baseline and the
// roofline floor (the fastest any kernel could be for that workload on that SoC).

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
  void setLatencies(const std::vector<std::optional<double>>& latencyUs, std::optional<double> baselineUs,
                    const std::vector<std::optional<double>>& floorUs = {});
  int pointCount() const;
  int floorPointCount() const;

 private:
  QLineSeries* series_;
  QLineSeries* baseline_;
  QLineSeries* floor_;
  QValueAxis* axisX_;
  QValueAxis* axisY_;
};

}  // namespace kwb::ui
