// SPDX-License-Identifier: MIT
// MainWindow's actions: the toolbar and menus, the timeline's context menu, and the small dialogs the
// actions open (hint, accept, trace export, save a copy). The layout and the views live in MainWindow.cpp.
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QTreeView>

#include "core/store/SessionStore.h"
#include "ui/KernelEditor.h"
#include "ui/MainWindow.h"
#include "ui/PipelineTraceView.h"
#include "ui/TimelineModel.h"

namespace kwb::ui {

QAction* MainWindow::action(const QString& name) const {
  auto it = actions_.find(name);
  return it == actions_.end() ? nullptr : it->second;
}

void MainWindow::buildActions() {
  auto make = [this](const QString& key, const QString& text, const QKeySequence& seq,
                     QStyle::StandardPixmap icon) {
    auto* a = new QAction(style()->standardIcon(icon), text, this);
    a->setShortcut(seq);
    a->setToolTip(QStringLiteral("%1 (%2)").arg(text, seq.toString(QKeySequence::NativeText)));
    a->setProperty(kBaseToolTip, a->toolTip());  // refreshActions() adds why a disabled one cannot act
    actions_[key] = a;
    return a;
  };
  auto* tb = addToolBar(tr("Agent"));
  tb->setObjectName(QStringLiteral("agentToolbar"));
  tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  auto* open = make(QStringLiteral("open"), tr("Open session…"), QKeySequence::Open, QStyle::SP_DirOpenIcon);
  auto* newSession = make(QStringLiteral("new"), tr("New session…"), QKeySequence::New, QStyle::SP_FileIcon);
  auto* start = make(QStringLiteral("start"), tr("Start"), QKeySequence(Qt::Key_F5), QStyle::SP_MediaPlay);
  auto* pause = make(QStringLiteral("pause"), tr("Pause"), QKeySequence(Qt::Key_F6), QStyle::SP_MediaPause);
  auto* step =
      make(QStringLiteral("step"), tr("Step"), QKeySequence(Qt::Key_F10), QStyle::SP_MediaSeekForward);
  auto* stop =
      make(QStringLiteral("stop"), tr("Stop"), QKeySequence(Qt::SHIFT | Qt::Key_F5), QStyle::SP_MediaStop);
  auto* hint = make(QStringLiteral("hint"), tr("Hint…"), QKeySequence(Qt::CTRL | Qt::Key_H),
                    QStyle::SP_MessageBoxQuestion);
  auto* runEdit = make(QStringLiteral("runEdit"), tr("Run this edit"),
                       QKeySequence(Qt::CTRL | Qt::Key_Return), QStyle::SP_DialogApplyButton);
  auto* rollback = make(QStringLiteral("rollback"), tr("Roll back to here"),
                        QKeySequence(Qt::CTRL | Qt::Key_B), QStyle::SP_ArrowBack);
  auto* accept = make(QStringLiteral("accept"), tr("Accept…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A),
                      QStyle::SP_DialogSaveButton);
  for (QAction* a : {newSession, open}) tb->addAction(a);
  tb->addSeparator();
  for (QAction* a : {start, pause, step, stop}) tb->addAction(a);
  tb->addSeparator();
  for (QAction* a : {hint, runEdit, rollback, accept}) tb->addAction(a);
  step->setProperty(kBaseToolTip, tr("Step (F10): run one iteration, then pause"));
  step->setStatusTip(tr("Runs one whole iteration (generate, compile, run, verify, profile), then pauses"));
  auto* restoreEdit = make(QStringLiteral("restoreEdit"), tr("Restore edit"),
                           QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), QStyle::SP_BrowserReload);
  restoreEdit->setStatusTip(tr("Brings back the unsaved edit set aside when you selected another iteration"));
  restoreEdit->setEnabled(false);
  connect(restoreEdit, &QAction::triggered, this, &MainWindow::restoreSetAsideEdit);

  auto* file = menuBar()->addMenu(tr("&Session"));
  file->addAction(newSession);
  file->addAction(open);
  recentMenu_ = file->addMenu(tr("Open &recent"));
  // A suite folder (kwb suite run --out DIR) opens in its own window (ui/SuiteView.h).
  auto* openSuite = file->addAction(tr("Open s&uite…"));
  actions_[QStringLiteral("openSuite")] = openSuite;
  openSuite->setStatusTip(
      tr("Shows a kwb suite run folder: its tasks x samples grid and the report's plots"));
  connect(openSuite, &QAction::triggered, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open suite folder"));
    if (!dir.isEmpty()) emit openSuiteRequested(dir);
  });
  auto* saveCopy = file->addAction(tr("Save a &copy…"));
  actions_[QStringLiteral("saveCopy")] = saveCopy;
  saveCopy->setStatusTip(tr("Sessions are saved as they go; this copies the session folder elsewhere"));
  connect(saveCopy, &QAction::triggered, this, [this] {
    if (!sessionDir_) {
      statusBar()->showMessage(tr("No session is open: start one first"), 5000);
      return;
    }
    const QString target =
        QFileDialog::getSaveFileName(this, tr("Save a copy of the session as folder"),
                                     QString::fromStdString(sessionDir_->string()) + QStringLiteral("-copy"));
    if (!target.isEmpty()) saveSessionCopy(target);
  });
  setRecentSessions({});
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
  auto* agent = menuBar()->addMenu(tr("&Agent"));
  for (QAction* a : {start, pause, step, stop, hint, runEdit, restoreEdit, rollback, accept})
    agent->addAction(a);

  connect(newSession, &QAction::triggered, this, &MainWindow::newSessionRequested);
  connect(open, &QAction::triggered, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open session folder"));
    if (!dir.isEmpty()) emit openSessionRequested(dir);
  });
  connect(start, &QAction::triggered, this, &MainWindow::startRequested);
  connect(pause, &QAction::triggered, this, &MainWindow::pauseRequested);
  connect(step, &QAction::triggered, this, &MainWindow::stepRequested);
  connect(stop, &QAction::triggered, this, &MainWindow::stopRequested);
  connect(hint, &QAction::triggered, this, &MainWindow::askHint);
  connect(runEdit, &QAction::triggered, this, [this] {
    const QString name =
        shownFile_.isEmpty() ? QStringLiteral("kernel.cpp") : QFileInfo(shownFile_).fileName();
    emit runEditRequested(name, editor_->text(), selected_);
    editor_->setModified(false);  // submitted: the editor follows the agent again
  });
  connect(rollback, &QAction::triggered, this, [this] {
    if (selected_) emit rollbackRequested(*selected_);
  });
  connect(accept, &QAction::triggered, this, &MainWindow::askAccept);
}

bool MainWindow::saveSessionCopy(const QString& target) {
  namespace fs = std::filesystem;
  if (!sessionDir_) return false;
  const fs::path to = target.toStdString();
  std::error_code ec;
  if (fs::exists(to, ec)) {
    statusBar()->showMessage(tr("Not saved: %1 already exists").arg(target), 8000);
    return false;
  }
  fs::create_directories(to, ec);
  for (auto it = fs::recursive_directory_iterator(*sessionDir_, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path rel = fs::relative(it->path(), *sessionDir_, ec);
    if (rel == "session.lock") continue;
    if (it->is_directory(ec))
      fs::create_directories(to / rel, ec);
    else
      fs::copy_file(it->path(), to / rel, fs::copy_options::overwrite_existing, ec);
    if (ec) break;
  }
  statusBar()->showMessage(
      ec ? tr("Could not copy the session to %1: %2").arg(target, QString::fromStdString(ec.message()))
         : tr("Session copied to %1").arg(target),
      8000);
  return !ec;
}

void MainWindow::showTimelineMenu(const QPoint& pos) {
  const Iteration* it = timeline_->iteration(timelineView_->indexAt(pos));
  if (!it) return;
  const int id = it->id;
  QMenu menu(this);
  if (selected_ && *selected_ != id) {
    const int sel = *selected_;
    menu.addAction(tr("Diff iteration %1 against %2").arg(sel).arg(id), this,
                   [this, sel, id] { compareIterations(id, sel); });
  }
  if (it->parentId) {
    const int parent = *it->parentId;
    menu.addAction(tr("Diff against its parent (%1)").arg(parent), this,
                   [this, parent, id] { compareIterations(parent, id); });
  }
  menu.addSeparator();
  QAction* rb =
      menu.addAction(action(QStringLiteral("rollback"))->icon(), tr("Roll back to iteration %1").arg(id),
                     this, [this, id] { emit rollbackRequested(id); });
  rb->setEnabled(action(QStringLiteral("hint"))->isEnabled());  // what can steer can roll back
  QAction* acc = menu.addAction(action(QStringLiteral("accept"))->icon(), tr("Accept iteration %1…").arg(id),
                                this, [this, id] {
                                  selectIteration(id);
                                  askAccept();
                                });
  acc->setEnabled(agentAvailable_ && it->verdict == Verdict::Pass && !exportingIteration_);
  std::vector<int> chosen = selectedTimelineIterations();
  if (std::find(chosen.begin(), chosen.end(), id) == chosen.end()) chosen = {id};
  menu.addAction(tr("Make a lesson from %1…")
                     .arg(chosen.size() == 1 ? tr("iteration %1").arg(id)
                                             : tr("the %1 selected iterations").arg(chosen.size())),
                 this, [this, chosen] { askMakeLessonDraft(chosen); });
  menu.exec(timelineView_->viewport()->mapToGlobal(pos));
}

void MainWindow::setRecentSessions(const QList<RecentSession>& sessions) {
  recentMenu_->clear();
  for (const RecentSession& r : sessions) {
    QAction* a = recentMenu_->addAction(r.label());
    a->setToolTip(r.dir);
    a->setStatusTip(r.dir);
    connect(a, &QAction::triggered, this, [this, d = r.dir] { emit openSessionRequested(d); });
  }
  recentMenu_->setEnabled(!sessions.isEmpty());
}

void MainWindow::exportTrace() {
  if (trace_->trace().processes.empty()) {
    statusBar()->showMessage(tr("This iteration has no pipeline trace to export"), 5000);
    return;
  }
  std::filesystem::path source;
  if (sessionDir_ && selected_) {
    const auto dir = *sessionDir_ / "iterations" / SessionStore::iterationFolderName(*selected_);
    if (const Iteration* it = session_.findIteration(*selected_); it && it->profile)
      for (const auto& [label, rel] : it->profile->artifacts)
        if (label.find("trace") != std::string::npos) source = dir / rel;
  }
  const QString target = QFileDialog::getSaveFileName(
      this, tr("Save Chrome trace"), QStringLiteral("trace.json"), tr("Chrome trace (*.json)"));
  if (target.isEmpty()) return;
  std::error_code ec;
  std::filesystem::copy_file(source, target.toStdString(), std::filesystem::copy_options::overwrite_existing,
                             ec);
  statusBar()->showMessage(
      ec ? tr("Could not save %1: %2").arg(target, QString::fromStdString(ec.message()))
         : tr("Saved %1 — open it at ui.perfetto.dev (Open trace file) or chrome://tracing").arg(target),
      10000);
}

void MainWindow::askHint() {
  bool ok = false;
  const QString hint = QInputDialog::getMultiLineText(this, tr("Hint for the agent"),
                                                      tr("The next prompt will include this hint:"), {}, &ok);
  if (ok && !hint.trimmed().isEmpty()) emit hintRequested(hint.trimmed());
}

void MainWindow::askAccept() {
  // Refuse before asking for a folder: the engineer learns why at once and picks nothing in vain.
  if (const QString why = acceptRefusal(); !why.isEmpty()) {
    statusBar()->showMessage(tr("Cannot accept: %1").arg(why), 10000);
    return;
  }
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Export iteration %1 as a CANN project into").arg(*selected_));
  if (!dir.isEmpty()) emit acceptRequested(*selected_, dir);
}

void MainWindow::lockSelection() {
  int l1, c1, l2, c2;
  editor_->getSelection(&l1, &c1, &l2, &c2);
  if (l1 < 0) {
    statusBar()->showMessage(tr("Select the kernel lines to lock first"), 5000);
    return;
  }
  if (c2 == 0 && l2 > l1) --l2;  // a selection ending at column 0 does not include that line
  emit lockLinesRequested(
      shownFile_.isEmpty() ? QStringLiteral("kernel.cpp") : QFileInfo(shownFile_).fileName(), editor_->text(),
      l1 + 1, l2 + 1);
}

}  // namespace kwb::ui
