#pragma once
// The workbench main window. For now: the kernel editor showing a task's expert candidate and the
// latency chart; the timeline, diagnostics, diff and steering panels attach here as they land.

#include <QMainWindow>

namespace kwb::ui {

class KernelEditor;
class LatencyChart;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  // Shows the task in `dir` (task.json + candidate sources). Returns false and shows why in the
  // status bar when the folder cannot be read.
  bool openTask(const QString& dir);

  KernelEditor* editor() const { return editor_; }
  LatencyChart* latencyChart() const { return latency_; }
  QString shownFile() const { return shownFile_; }

 private:
  KernelEditor* editor_;
  LatencyChart* latency_;
  QString shownFile_;
};

}  // namespace kwb::ui
