#include "ui/MainWindow.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSplitter>
#include <QStatusBar>
#include <QTextStream>

#include "ui/KernelEditor.h"
#include "ui/LatencyChart.h"

namespace kwb::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("Kernel Workbench"));
  auto* split = new QSplitter(Qt::Horizontal, this);
  editor_ = new KernelEditor(split);
  latency_ = new LatencyChart(split);
  split->addWidget(editor_);
  split->addWidget(latency_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  setCentralWidget(split);
  statusBar()->showMessage(tr("Backend: built-in Ascend C emulator (no NPU)"));
  resize(1280, 800);
}

bool MainWindow::openTask(const QString& dir) {
  const QDir taskDir(dir);
  if (!taskDir.exists()) {
    statusBar()->showMessage(tr("Task folder %1 does not exist").arg(dir));
    return false;
  }
  // The expert candidate is what a task ships as its known-good kernel; fall back to the README.
  for (const QString& name : {QStringLiteral("expert_candidate.cpp"), QStringLiteral("kernel.cpp"),
                              QStringLiteral("README.md")}) {
    QFile f(taskDir.filePath(name));
    if (!f.exists()) continue;
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
      statusBar()->showMessage(tr("Cannot read %1: %2").arg(f.fileName(), f.errorString()));
      return false;
    }
    editor_->setSource(QTextStream(&f).readAll());
    shownFile_ = f.fileName();
    setWindowTitle(tr("Kernel Workbench — %1").arg(taskDir.dirName()));
    statusBar()->showMessage(
        tr("Task %1 · backend: built-in Ascend C emulator (no NPU) · %2").arg(taskDir.dirName(), name));
    return true;
  }
  statusBar()->showMessage(tr("Task folder %1 has no candidate source or README").arg(dir));
  return false;
}

}  // namespace kwb::ui
