#pragma once
// Latency of each iteration (emulator estimate or device measurement) against the task baseline.

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
  void setLatencies(const std::vector<std::optional<double>>& latencyUs, std::optional<double> baselineUs);
  int pointCount() const;

 private:
  QLineSeries* series_;
  QLineSeries* baseline_;
  QValueAxis* axisX_;
  QValueAxis* axisY_;
};

}  // namespace kwb::ui
