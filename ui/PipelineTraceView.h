// SPDX-License-Identifier: MIT
#pragma once
// Per-core, per-pipe Gantt chart of a pipeline trace. Ctrl+wheel (or +/-) zooms around the cursor, drag
// pans, hovering a slice shows its API, timing and source line; double-click asks to jump to the line.

#include <QWidget>
#include <optional>

#include "core/profile/PipelineTrace.h"

namespace kwb::ui {

class PipelineTraceView : public QWidget {
  Q_OBJECT
 public:
  explicit PipelineTraceView(QWidget* parent = nullptr);

  void setTrace(PipelineTrace trace);
  void clearTrace();
  const PipelineTrace& trace() const { return trace_; }

  // Visible time window in microseconds.
  void setVisibleRange(double beginUs, double endUs);
  double visibleBegin() const { return t0_; }
  double visibleEnd() const { return t1_; }
  void zoom(double factor, double anchorUs);
  void resetZoom();

  // The slice at a widget position, if any (used for tooltips and tests).
  const TraceSlice* sliceAt(const QPoint& pos, QString* laneLabel = nullptr) const;
  QSize sizeHint() const override;

 signals:
  void sourceActivated(const QString& source);  // "kernel.cpp:42"

 protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void mouseDoubleClickEvent(QMouseEvent*) override;
  void keyPressEvent(QKeyEvent*) override;
  bool event(QEvent*) override;

 private:
  struct Row {
    int process = -1;
    int lane = -1;  // -1: process header row
  };
  void rebuildRows();
  double xToUs(double x) const;
  double usToX(double us) const;
  int plotLeft() const { return 170; }

  PipelineTrace trace_;
  std::vector<Row> rows_;
  double t0_ = 0, t1_ = 1;
  std::optional<QPoint> dragStart_;
  double dragT0_ = 0, dragT1_ = 0;
};

}  // namespace kwb::ui
