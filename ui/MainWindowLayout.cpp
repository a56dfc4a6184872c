// SPDX-License-Identifier: MIT
// MainWindow's layout: the docks around the editor, their default sizes, the View and Help menus, and
// keeping the engineer's own arrangement across launches (QSettings). The editor is the centre of the
// product, so by default it gets most of the width: the Iterations timeline sits below it beside the
// feedback (a wide, short table that shows every column), the Analysis dock on the right is sized to
// its charts, and whatever the engineer drags is restored next time (docs/workbench.md, "Layout").
#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QThreadPool>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

#include "core/base/TextFile.h"
#include "ui/ConstraintsPanel.h"
#include "ui/ConversationPanel.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/DiffView.h"
#include "ui/KernelEditor.h"
#include "ui/LatencyChart.h"
#include "ui/LessonNotesPanel.h"
#include "ui/MainWindow.h"
#include "ui/PipeUtilizationChart.h"
#include "ui/PipelineTraceView.h"
#include "ui/TimelineModel.h"

namespace kwb::ui {
namespace {

// Bumped when the docks change, so an arrangement saved by an older build is not applied to a newer
// set of docks (QMainWindow::restoreState refuses a different version).
constexpr int kLayoutVersion = 2;
constexpr QLatin1String kGeometryKey("window/geometry");
constexpr QLatin1String kStateKey("window/state");

}  // namespace

void MainWindow::buildDocks() {
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
  timelineView_ = new QTreeView(this);
  timelineView_->setModel(timeline_);
  timelineView_->setUniformRowHeights(true);
  timelineView_->setAlternatingRowColors(true);
  timelineView_->setRootIsDecorated(true);
  // Ctrl+click a second row to compare exactly those two iterations (MainWindow::refreshDiff).
  timelineView_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  timelineView_->setSelectionBehavior(QAbstractItemView::SelectRows);
  timelineView_->header()->setStretchLastSection(false);
  timelineView_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  timelineView_->setContextMenuPolicy(Qt::CustomContextMenu);
  // A right click opens the menu for the row under it without moving the selection, so "Diff iteration
  // N against M" compares the selected row with the clicked one.
  timelineView_->viewport()->installEventFilter(this);
  connect(timelineView_, &QWidget::customContextMenuRequested, this, &MainWindow::showTimelineMenu);
  connect(timelineView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& cur) {
            if (restoringTimeline_) return;
            if (const Iteration* it = timeline_->iteration(cur)) selectIteration(it->id);
          });
  connect(timelineView_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    if (!restoringTimeline_) refreshDiff();
  });
  // A new branch re-lays the timeline out (a model reset): expand it again and keep the selection.
  connect(timeline_, &QAbstractItemModel::modelReset, this, [this] {
    restoringTimeline_ = true;
    timelineView_->expandAll();
    if (selected_)
      if (const QModelIndex idx = timeline_->indexOfIteration(*selected_); idx.isValid())
        timelineView_->setCurrentIndex(idx);
    restoringTimeline_ = false;
  });
  auto* timelineDock = new QDockWidget(tr("Iterations"), this);
  timelineDock->setObjectName(QStringLiteral("timelineDock"));
  timelineDock->setWidget(timelineView_);
  addDockWidget(Qt::BottomDockWidgetArea, timelineDock);

  bottomTabs_ = new QTabWidget(this);
  bottomTabs_->addTab(diagnostics_, tr("Diagnostics"));
  bottomTabs_->addTab(conversation_, tr("Conversation"));
  auto* feedbackDock = new QDockWidget(tr("Feedback"), this);
  feedbackDock->setObjectName(QStringLiteral("feedbackDock"));
  feedbackDock->setWidget(bottomTabs_);
  splitDockWidget(timelineDock, feedbackDock, Qt::Horizontal);

  rightTabs_ = new QTabWidget(this);
  auto* profile = new QSplitter(Qt::Vertical, this);
  profile->addWidget(latency_);
  profile->addWidget(pipes_);
  // Both charts need room for their axes: split the tab evenly and never squeeze one below readability.
  latency_->setMinimumHeight(220);
  pipes_->setMinimumHeight(240);
  profile->setStretchFactor(0, 1);
  profile->setStretchFactor(1, 1);
  rightTabs_->addTab(profile, tr("Profile"));
  auto* traceBox = new QWidget(this);
  auto* tl = new QVBoxLayout(traceBox);
  tl->setContentsMargins(0, 0, 0, 0);
  traceCaseLabel_ = new QLabel(traceBox);
  traceCaseLabel_->setWordWrap(true);
  traceCaseLabel_->setContentsMargins(4, 2, 4, 0);
  tl->addWidget(traceCaseLabel_);
  auto* traceBar = new QHBoxLayout;
  auto* hintLabel =
      new QLabel(tr("Ctrl+wheel or +/− zoom · drag to pan · double-click jumps to source"), traceBox);
  hintLabel->setWordWrap(true);
  auto* exportBtn = new QPushButton(tr("Save trace for Perfetto…"), traceBox);
  exportBtn->setObjectName(QStringLiteral("saveTraceButton"));
  exportBtn->setToolTip(
      tr("Saves the trace as a Chrome trace JSON file. Open it at ui.perfetto.dev (Open trace file), in "
         "chrome://tracing or in MindStudio Insight; View ▸ Open ui.perfetto.dev opens the site."));
  traceBar->addWidget(hintLabel, 1);
  traceBar->addWidget(exportBtn);
  tl->addLayout(traceBar);
  traceScroll_ = new QScrollArea(traceBox);
  traceScroll_->setWidget(trace_);
  traceScroll_->setWidgetResizable(true);
  tl->addWidget(traceScroll_, 1);
  connect(exportBtn, &QPushButton::clicked, this, &MainWindow::exportTrace);
  rightTabs_->addTab(traceBox, tr("Pipeline trace"));
  diffTab_ = new QSplitter(Qt::Horizontal, this);
  diffTab_->addWidget(diff_);
  diffTab_->addWidget(lessonNotes_);
  diffTab_->setStretchFactor(0, 3);
  diffTab_->setStretchFactor(1, 2);
  lessonNotes_->hide();
  rightTabs_->addTab(diffTab_, tr("Diff"));
  rightTabs_->addTab(constraints_, tr("Constraints"));
  auto* analysisDock = new QDockWidget(tr("Analysis"), this);
  analysisDock->setObjectName(QStringLiteral("analysisDock"));
  analysisDock->setWidget(rightTabs_);
  addDockWidget(Qt::RightDockWidgetArea, analysisDock);
  // The right dock ends above the bottom docks, so the timeline and the feedback span the window.
  setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
  setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
}

void MainWindow::applyDefaultLayout() {
  auto* timelineDock = findChild<QDockWidget*>(QStringLiteral("timelineDock"));
  auto* feedbackDock = findChild<QDockWidget*>(QStringLiteral("feedbackDock"));
  auto* analysisDock = findChild<QDockWidget*>(QStringLiteral("analysisDock"));
  // The analysis dock is as wide as its charts read well (about a third of the window); the editor
  // takes the rest, well over half. The timeline is as wide as its columns, the feedback the rest.
  const int w = std::max(width(), 800);
  resizeDocks({analysisDock}, {std::clamp(w * 3 / 10, 380, 560)}, Qt::Horizontal);
  resizeDocks({timelineDock, feedbackDock}, {timelineContentWidth(), w - timelineContentWidth()},
              Qt::Horizontal);
  resizeDocks({timelineDock}, {std::clamp(height() / 4, 180, 300)}, Qt::Vertical);
}

int MainWindow::timelineContentWidth() const {
  // Every column at its content width (ResizeToContents), at least as wide as the headers and the
  // values a session typically holds, plus the tree's indentation and the scroll bar.
  const QFontMetrics fm = timelineView_->fontMetrics();
  const int typical = fm.horizontalAdvance(
      QStringLiteral("⟲ 12 rolled back to 9 ★  replay  compile error  ✓ ✓ ✓  123.45  10.00×  12345  12.3 s"));
  const int columns = std::max(timelineView_->header()->length(), typical + 8 * 16);
  return columns + timelineView_->indentation() * 2 + 24;
}

void MainWindow::buildViewMenus() {
  auto* view = menuBar()->addMenu(tr("&View"));
  for (const char* name : {"timelineDock", "feedbackDock", "analysisDock"})
    if (auto* dock = findChild<QDockWidget*>(QString::fromLatin1(name)))
      view->addAction(dock->toggleViewAction());
  view->addSeparator();
  auto* reset = view->addAction(tr("Reset the layout"));
  actions_[QStringLiteral("resetLayout")] = reset;
  connect(reset, &QAction::triggered, this, [this] {
    for (auto* dock : findChildren<QDockWidget*>()) dock->show();
    applyDefaultLayout();
  });
  view->addSeparator();
  auto* expert = view->addAction(tr("Show the expert solution (spoiler)"));
  expert->setStatusTip(tr("Shows the task's own reference kernel in the editor; it gives the answer away"));
  actions_[QStringLiteral("showExpert")] = expert;
  expert->setEnabled(false);
  connect(expert, &QAction::triggered, this, &MainWindow::showExpertSolution);
  auto* perfetto = view->addAction(tr("Open ui.perfetto.dev"));
  perfetto->setStatusTip(tr("Opens the Perfetto trace viewer in the browser; load a saved trace there"));
  connect(perfetto, &QAction::triggered, this,
          [] { QDesktopServices::openUrl(QUrl(QStringLiteral("https://ui.perfetto.dev"))); });

  auto* help = menuBar()->addMenu(tr("&Help"));
  helpMenu_ = help;
  auto* about = help->addAction(tr("&About Kernel Workbench"));
  actions_[QStringLiteral("about")] = about;
  connect(about, &QAction::triggered, this, [this] {
    QMessageBox box(QMessageBox::Information, tr("About Kernel Workbench"), aboutText(), QMessageBox::Ok,
                    this);
    box.exec();
  });
  auto* tour = help->addAction(tr("&Tour of the workbench"));
  actions_[QStringLiteral("tour")] = tour;
  connect(tour, &QAction::triggered, this, [this] { showTour(); });
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QString MainWindow::aboutText() const {
  return tr("<b>Kernel Workbench %1</b><p>Develop Ascend C operators together with an LLM coding agent: "
            "each candidate is compiled, run on the built-in Ascend C emulator (or a CANN toolkit), "
            "verified against the task's reference and profiled.</p><p>Licensed under the MIT "
            "licence.</p>")
      .arg(QStringLiteral(KWB_VERSION));
}

void MainWindow::showExpertSolution() {
  if (taskDir_.isEmpty()) return;
  const std::filesystem::path file = std::filesystem::path(taskDir_.toStdString()) / "expert_candidate.cpp";
  // Read on a worker; the window may be gone when it ends.
  QPointer<MainWindow> self(this);
  QThreadPool::globalInstance()->start([self, file] {
    std::string error;
    std::string text;
    try {
      text = readTextFileOrThrow(file);
    } catch (const std::exception& e) {
      error = e.what();
    }
    QMetaObject::invokeMethod(
        qApp,
        [self, text = std::move(text), error = std::move(error)] {
          if (!self) return;
          if (!error.empty()) {
            self->statusBar()->showMessage(
                tr("Cannot read the expert solution: %1").arg(QString::fromStdString(error)), 8000);
            return;
          }
          self->selected_.reset();
          self->editor_->setSource(QString::fromStdString(text));
          self->shownFile_ = QStringLiteral("expert_candidate.cpp");
          self->editorHeader_->setText(tr("<b>%1</b> · the expert solution (spoiler) · expert_candidate.cpp")
                                           .arg(QFileInfo(self->taskDir_).fileName().toHtmlEscaped()));
        },
        Qt::QueuedConnection);
  });
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (layoutApplied_) return;
  layoutApplied_ = true;
  // Menus added after construction (WorkbenchApp's Tools) go before Help, which stays last.
  menuBar()->removeAction(helpMenu_->menuAction());
  menuBar()->addAction(helpMenu_->menuAction());
  QSettings settings;
  const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
  const QByteArray state = settings.value(kStateKey).toByteArray();
  if (!geometry.isEmpty()) restoreGeometry(geometry);
  if (state.isEmpty() || !restoreState(state, kLayoutVersion)) applyDefaultLayout();
  if (lesson_) widenForLesson();
}

void MainWindow::widenForLesson() {
  // The diff and the lesson's explanation share the analysis dock: give it room to read both.
  if (auto* dock = findChild<QDockWidget*>(QStringLiteral("analysisDock")))
    resizeDocks({dock}, {std::max(dock->width(), width() * 11 / 20)}, Qt::Horizontal);
}

void MainWindow::hideEvent(QHideEvent* event) {
  // Closing hides the window: keep the arrangement the engineer left.
  if (layoutApplied_ && !event->spontaneous()) {
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState(kLayoutVersion));
  }
  QMainWindow::hideEvent(event);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  if (watched == timelineView_->viewport() &&
      (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::MouseButtonRelease ||
       event->type() == QEvent::MouseButtonDblClick) &&
      static_cast<QMouseEvent*>(event)->button() == Qt::RightButton)
    return true;  // the context menu event still comes; the selection stays where it was
  return QMainWindow::eventFilter(watched, event);
}

}  // namespace kwb::ui
