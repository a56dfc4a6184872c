// SPDX-License-Identifier: MIT
// MainWindow's live agent side: the slots the AgentBridge's signals arrive in (iterations, streamed
// replies, the agent's state, retries, constraints, exports), which agent controls can act now, and the
// rule that the agent never clears an edit of the engineer (docs/workbench.md, "Your edits and the
// agent"). The layout and the views live in MainWindow.cpp, the actions in MainWindowActions.cpp.
#include <QAction>
#include <QDateTime>
#include <QFileInfo>
#include <QLabel>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>
#include <set>

#include "ui/AgentBridge.h"
#include "ui/ConstraintsPanel.h"
#include "ui/ConversationPanel.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/KernelEditor.h"
#include "ui/MainWindow.h"
#include "ui/TimelineModel.h"

namespace kwb::ui {
namespace {

bool isWorking(AgentState s) {
  switch (s) {
    case AgentState::Generating:
    case AgentState::Compiling:
    case AgentState::Running:
    case AgentState::Verifying:
    case AgentState::Profiling:
    case AgentState::Deciding:
      return true;
    default:
      return false;
  }
}

}  // namespace

void MainWindow::attachAgent(AgentBridge* bridge) {
  connect(bridge, &AgentBridge::stateChanged, this, &MainWindow::setAgentState);
  connect(bridge, &AgentBridge::iterationUpdated, this, &MainWindow::updateIteration);
  connect(bridge, &AgentBridge::tokensStreamed, this, &MainWindow::appendStreamedText);
  connect(bridge, &AgentBridge::streamRestarted, this, &MainWindow::restartStream);
  connect(bridge, &AgentBridge::llmRetry, this,
          [this](int id, int, long long, const QString& text) { showLlmRetry(id, text); });
  connect(bridge, &AgentBridge::constraintsChanged, this, &MainWindow::setConstraints);
  connect(bridge, &AgentBridge::acceptedChanged, this, &MainWindow::showExported);
  connect(bridge, &AgentBridge::exportStarted, this,
          [this](int id, const QString& dir) { setExportInFlight(id, dir); });
  connect(bridge, &AgentBridge::exportFailed, this, [this](int id, const QString& reason) {
    setExportInFlight(std::nullopt, {});
    statusBar()->showMessage(tr("Iteration %1 was not exported: %2").arg(id).arg(reason));
  });
  connect(bridge, &AgentBridge::steppingChanged, this, &MainWindow::setStepping);
  connect(bridge, &AgentBridge::errorReported, this,
          [this](const QString& message) { setAgentStatus(tr("error"), message); });
  connect(bridge, &AgentBridge::requestFailed, this,
          [this](const QString& message) { statusBar()->showMessage(message, 10000); });
  connect(bridge, &AgentBridge::noticeReported, this,
          [this](const QString& message) { statusBar()->showMessage(message, 8000); });
  agentState_ = AgentState::Idle;
  stepping_ = false;
  exportingIteration_.reset();
  setAgentAvailable(true, {});
}

void MainWindow::resetAgentView() {
  setAsideEdit_.reset();
  streamingIteration_.reset();
  streamToConversation_ = false;
  editor_->setStreaming(false);
  editor_->setModified(false);
  selected_.reset();
}

bool MainWindow::editorHoldsEdit() const {
  return editor_->isModified() && !streamingIntoEditor();
}

void MainWindow::selectIteration(int id) {
  if (!session_.findIteration(id)) return;
  if (selected_ == id && editorHoldsEdit()) {
    showIteration(id);  // the panels follow; the engineer's text stays (see showIteration)
    return;
  }
  if (editorHoldsEdit()) {
    // An explicit selection moves away from an unsaved edit: keep it restorable, never drop it.
    setAsideEdit_ = SetAsideEdit{selected_, shownFile_, editor_->text()};
    editor_->setModified(false);  // kept aside: the editor may show the selected iteration
    statusBar()->showMessage(
        tr("Your unsaved edit%1 is set aside: Restore edit (Ctrl+Shift+R) brings it back")
            .arg(selected_ ? tr(" of iteration %1").arg(*selected_) : QString()));
  }
  if (streamingIteration_ == id && !editorHoldsEdit()) {
    // Back on the iteration the agent is writing: the editor follows its reply again, from the start.
    followStream(id);
    return;
  }
  if (streamingIntoEditor() && *streamingIteration_ != id) {
    // The engineer looks at another iteration: the editor and the panels are that iteration's; the
    // reply goes on unseen (its timeline row says "generating…") and is shown when it is selected.
    streamToConversation_ = true;
    editor_->setStreaming(false);
  }
  showIteration(id);
  refreshActions();
}

void MainWindow::restoreSetAsideEdit() {
  if (!setAsideEdit_) return;
  SetAsideEdit edit = std::move(*setAsideEdit_);
  setAsideEdit_.reset();
  if (editorHoldsEdit()) setAsideEdit_ = SetAsideEdit{selected_, shownFile_, editor_->text()};  // swap
  if (streamingIntoEditor()) {  // the edit takes the editor back from the stream
    streamToConversation_ = true;
    editor_->setStreaming(false);
  }
  shownFile_ = edit.fileName;
  editor_->setText(edit.text);  // modified: Run this edit submits it
  // The panels (and the editor's diagnostics) show the iteration the edit was made on; the text stays.
  if (edit.iterationId && session_.findIteration(*edit.iterationId)) showIteration(*edit.iterationId);
  refreshLockedRanges();
  statusBar()->showMessage(tr("Your edit is back in the editor"), 5000);
  refreshActions();
}

void MainWindow::updateIteration(const Iteration& iteration) {
  session_.upsertIteration(iteration);
  noteLessonProgress(iteration);
  timeline_->upsertIteration(iteration);
  refreshLatency();
  refreshConstraintCounts();
  if (streamingIteration_ == iteration.id && iteration.state != IterationState::Generating) endStream();
  if (lessonTarget_ && isFinal(iteration.state) && lessonStepOf(iteration.id) == *lessonTarget_) {
    // The step asked for has its verdict: stop the replay here (the loop pauses at its next boundary;
    // the following step may already be generated by then, and waits, paused, for the next click).
    lessonTarget_.reset();
    lessonHold_ = iteration.id;
    emit pauseRequested();
    selectIteration(iteration.id);
    refreshActions();
    return;
  }
  if (lessonHold_ && !lessonTarget_) {
    // Teaching mode holds the step just played; later iterations show in the timeline only.
    if (*lessonHold_ == iteration.id) selectIteration(iteration.id);
    refreshActions();
    return;
  }
  if (editorHoldsEdit()) {
    // The engineer's edit stays in the editor; the timeline shows the agent's progress.
    if (selected_ == iteration.id) showIteration(iteration.id);
    if (selected_)
      iterationLabel_->setText(tr("iteration %1 of %2").arg(*selected_).arg(session_.iterations.size()));
    refreshActions();
    return;
  }
  if (!selected_ || *selected_ == iteration.id || isFinal(iteration.state)) showIteration(iteration.id);
  refreshActions();
}

void MainWindow::endStream() {
  if (!streamingIteration_) return;
  if (streamToConversation_) conversation_->endLiveReply();
  editor_->setStreaming(false);
  streamingIteration_.reset();
  streamToConversation_ = false;
  streamedText_.clear();
}

void MainWindow::appendStreamedText(int iterationId, const QString& delta) {
  if (retrying_) {
    // The retried request answers: the wait is over, the state is the agent's again.
    retrying_ = false;
    statusBar()->clearMessage();
    if (agentState_) stateLabel_->setText(QString::fromUtf8(agentStateName(*agentState_).data()));
  }
  if (streamingIteration_ != iterationId) {
    endStream();
    const bool keepEdit = editorHoldsEdit();
    streamingIteration_ = iterationId;
    streamedText_.clear();
    if (keepEdit) {
      streamToConversation_ = true;
      conversation_->beginLiveReply(iterationId, {});
      statusBar()->showMessage(
          tr("The agent is writing iteration %1 in the Conversation tab: your unsaved edit stays in the "
             "editor")
              .arg(iterationId),
          10000);
    } else {
      followStream(iterationId);
    }
    refreshActions();
  }
  streamedText_ += delta;
  if (streamToConversation_)
    conversation_->appendLiveReply(delta);
  else
    editor_->appendStreamed(delta);
}

void MainWindow::followStream(int iterationId) {
  if (streamToConversation_) conversation_->endLiveReply();
  streamToConversation_ = false;
  selected_ = iterationId;
  editor_->setStreaming(true);
  editor_->setSource({});
  editor_->appendStreamed(streamedText_);
  editorHeader_->setText(tr("<b>Iteration %1</b> · the agent is writing…").arg(iterationId));
  diagnostics_->setDiagnostics({});  // nothing is found in a reply before it is evaluated
  iterationLabel_->setText(tr("iteration %1 of %2").arg(iterationId).arg(session_.iterations.size()));
  // The timeline points at the iteration the editor shows, so a click on any other row selects it.
  const QModelIndex idx = timeline_->indexOfIteration(iterationId);
  if (idx.isValid() && timelineView_->currentIndex().siblingAtColumn(0) != idx)
    timelineView_->setCurrentIndex(idx);
  refreshActions();
}

void MainWindow::restartStream(int iterationId) {
  appendStreamedText(iterationId, QStringLiteral("\n/* -- retrying: the reply restarts -- */\n"));
}

void MainWindow::setAgentState(AgentState state, std::optional<int> iterationId, const QString& detail) {
  agentState_ = state;
  if (retrying_) statusBar()->clearMessage();
  retrying_ = false;
  QString shown = QString::fromUtf8(agentStateName(state).data());
  if (state == AgentState::Paused && stepping_) shown = tr("stepping");
  setAgentStatus(shown, detail);
  timeline_->setPausedIteration(std::nullopt);
  if (state == AgentState::Paused && !stepping_) {
    // The iteration in flight, if any, waits: the timeline says so instead of "compiling…".
    for (const auto& it : session_.iterations)
      if (!isFinal(it.state) && it.state != IterationState::Pending) timeline_->setPausedIteration(it.id);
  }
  (void)iterationId;
  refreshActions();
}

void MainWindow::showLlmRetry(int iterationId, const QString& text) {
  (void)iterationId;
  retrying_ = true;
  stateLabel_->setText(tr("retrying"));
  statusBar()->showMessage(text);  // stays until the next message: the wait is the news
}

void MainWindow::setStepping(bool stepping) {
  stepping_ = stepping;
  if (stepping) statusBar()->showMessage(tr("Step: running one iteration, then pausing"), 8000);
  if (!stepping && agentState_ == AgentState::Paused)
    setAgentState(AgentState::Paused, std::nullopt, {});  // the step is done: say "paused"
  refreshActions();
}

void MainWindow::setExportInFlight(std::optional<int> iterationId, const QString& exportDir) {
  exportingIteration_ = iterationId;
  if (iterationId)
    statusBar()->showMessage(tr("Exporting iteration %1 to %2…").arg(*iterationId).arg(exportDir));
  refreshActions();
}

void MainWindow::showExported(int iterationId, const QString& exportDir) {
  setExportInFlight(std::nullopt, {});
  setAccepted(iterationId);
  statusBar()->showMessage(tr("Iteration %1 exported to %2").arg(iterationId).arg(exportDir), 15000);
}

void MainWindow::setAgentStatus(const QString& state, const QString& detail) {
  stateLabel_->setText(state);
  static const QStringList working = {QStringLiteral("generating"), QStringLiteral("compiling"),
                                      QStringLiteral("running"),    QStringLiteral("verifying"),
                                      QStringLiteral("profiling"),  QStringLiteral("deciding")};
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  if (working.contains(state)) {
    if (clockStartedMs_ < 0) clockStartedMs_ = now;
    clockTimer_->start();
  } else {
    if (clockStartedMs_ >= 0) elapsedMs_ += now - clockStartedMs_;
    clockStartedMs_ = -1;
    clockTimer_->stop();
  }
  refreshElapsed();
  if (!detail.isEmpty()) statusBar()->showMessage(detail, 8000);
  // Streamed text of the next step may have taken the editor before the pause landed: show the step
  // that was played again.
  if (lessonHold_ && state == QStringLiteral("paused") && selected_ != lessonHold_)
    selectIteration(*lessonHold_);
}

QString MainWindow::elapsedText() const {
  qint64 ms = elapsedMs_;
  if (clockStartedMs_ >= 0) ms += QDateTime::currentMSecsSinceEpoch() - clockStartedMs_;
  const qint64 s = ms / 1000;
  return s < 3600 ? tr("%1:%2 elapsed").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'))
                  : tr("%1:%2:%3 elapsed")
                        .arg(s / 3600)
                        .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
                        .arg(s % 60, 2, 10, QLatin1Char('0'));
}

void MainWindow::refreshElapsed() {
  elapsedLabel_->setText(elapsedText());
}

std::map<int, int> MainWindow::rejectionCounts() const {
  // Linked by the diagnostic's constraint id (core/agent/ConstraintEnforcer.h), never by its text; an
  // iteration counts once per constraint it broke.
  std::map<int, int> rejections;
  for (const auto& it : session_.iterations) {
    std::set<int> broken;
    for (const auto& d : it.diagnostics)
      if (d.constraintId) broken.insert(*d.constraintId);
    for (const auto& c : session_.constraints)
      if (broken.count(c.id)) ++rejections[c.id];
  }
  return rejections;
}

void MainWindow::refreshConstraintCounts() {
  constraints_->setConstraints(session_.constraints, rejectionCounts());
}

void MainWindow::refreshLockedRanges() {
  // Located in the text the editor shows (an edit may have moved a locked block).
  const std::string source = editor_->text().toStdString();
  const std::string fileName = QFileInfo(shownFile_).fileName().toStdString();
  std::vector<std::pair<int, int>> locks;
  for (const auto& c : session_.constraints)
    if (c.kind == ConstraintKind::LockedRegion && (c.file.empty() || c.file == fileName)) {
      if (auto at = findLockedRegion(c, source)) locks.emplace_back(*at, *at + (c.endLine - c.startLine));
    }
  editor_->setLockedRanges(locks);
}

void MainWindow::setConstraints(const std::vector<Constraint>& constraints) {
  session_.constraints = constraints;
  refreshConstraintCounts();
  // Only the shading changes: the text, the cursor and the scroll position stay where they were.
  refreshLockedRanges();
}

void MainWindow::setAccepted(std::optional<int> iterationId) {
  session_.acceptedIteration = iterationId;
  timeline_->setAccepted(iterationId);
}

QString MainWindow::acceptRefusal() const {
  if (!selected_) return tr("Select the iteration to accept first");
  const Iteration* it = session_.findIteration(*selected_);
  if (!it) return tr("Select the iteration to accept first");
  if (it->verdict != Verdict::Pass)
    return tr("Iteration %1 did not pass (%2): only a passing iteration can be exported")
        .arg(*selected_)
        .arg(it->verdict ? QString::fromUtf8(verdictName(*it->verdict).data()) : tr("not evaluated yet"));
  if (exportingIteration_) return tr("Iteration %1 is being exported").arg(*exportingIteration_);
  return {};
}

void MainWindow::refreshActions() {
  const bool live = agentAvailable_ && agentState_.has_value();
  const AgentState s = agentState_.value_or(AgentState::Stopped);
  const bool stopped = !live || s == AgentState::Stopped;
  struct Rule {
    const char* key;
    bool can;
    QString why;  // shown when it cannot
  };
  const QString afterStop = tr("the agent was stopped: start a new session or reopen this one");
  const bool noSelection = !selected_ || !session_.findIteration(*selected_);
  const QString refusal = acceptRefusal();
  const std::vector<Rule> rules = {
      {"start",
       !stopped && !stepping_ &&
           (s == AgentState::Idle || s == AgentState::Paused || s == AgentState::Finished),
       stopped     ? afterStop
       : stepping_ ? tr("stepping")
                   : tr("the agent is already running")},
      {"pause", !stopped && (isWorking(s) || stepping_),
       stopped ? afterStop : tr("the agent is not running")},
      {"step", !stopped && !stepping_, stopped ? afterStop : tr("a step is in progress")},
      {"stop", !stopped && s != AgentState::Idle && s != AgentState::Finished,
       stopped ? afterStop : tr("the agent is not running")},
      {"hint", !stopped, afterStop},
      {"rollback", !stopped && !noSelection, stopped ? afterStop : tr("select an iteration first")},
      {"accept", agentAvailable_ && refusal.isEmpty(), refusal},
      {"runEdit", !stopped && editorHoldsEdit(),
       stopped                 ? afterStop
       : streamingIntoEditor() ? tr("the agent is writing into the editor")
                               : tr("edit the kernel first")},
  };
  for (const Rule& r : rules) {
    QAction* a = action(QString::fromLatin1(r.key));
    if (!a) continue;
    a->setEnabled(r.can);
    const QString why = agentAvailable_ ? r.why : unavailableReason_;
    a->setStatusTip(r.can ? QString() : why);
    const QString base = a->property(kBaseToolTip).toString();
    a->setToolTip(r.can ? base : QStringLiteral("%1 — %2").arg(base, why));
  }
  if (QAction* start = action(QStringLiteral("start")))
    start->setText(s == AgentState::Paused ? tr("Resume") : tr("Start"));
  if (QAction* restore = action(QStringLiteral("restoreEdit")))
    restore->setEnabled(setAsideEdit_.has_value());
}

void MainWindow::setAgentAvailable(bool available, const QString& reason) {
  agentAvailable_ = available;
  unavailableReason_ = reason;
  if (!available) {
    agentState_.reset();
    stateLabel_->setText(tr("agent not connected"));
  } else if (!agentState_) {
    agentState_ = AgentState::Idle;
  }
  refreshActions();
}

}  // namespace kwb::ui
