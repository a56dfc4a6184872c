// SPDX-License-Identifier: MIT
#include "ui/AgentBridge.h"

#include <QMetaObject>

#include "ui/MainWindow.h"
#include "ui/UiLogging.h"

namespace kwb::ui {

AgentBridge::AgentBridge(std::unique_ptr<AgentLoop> loop, MainWindow* window, QObject* parent)
    : QObject(parent), loop_(std::move(loop)), window_(window) {
  tokenTimer_.setInterval(50);
  connect(&tokenTimer_, &QTimer::timeout, this, &AgentBridge::flushTokens);
  tokenTimer_.start();
  loop_->addObserver(this);
  window_->attachAgent(this);
  connectWindow();
  emit stateChanged(loop_->state(), std::nullopt, {});
}

AgentBridge::~AgentBridge() {
  if (exportThread_.joinable()) exportThread_.join();
  if (!loop_) return;
  loop_->removeObserver(this);
  loop_->stop();
}

std::unique_ptr<AgentLoop> AgentBridge::releaseLoop() {
  tokenTimer_.stop();
  disconnect(window_, nullptr, this, nullptr);
  disconnect(this, nullptr, window_, nullptr);
  if (exportThread_.joinable()) exportThread_.join();
  if (loop_) {
    loop_->removeObserver(this);
    loop_->stop();
  }
  return std::move(loop_);
}

void AgentBridge::onAgentEvent(const AgentEvent& event) {
  if (const auto* t = std::get_if<agent_event::TokenStreamed>(&event)) {
    std::lock_guard lock(tokensMutex_);
    pendingTokens_.emplace_back(t->iterationId, t->text);
    return;
  }
  QMetaObject::invokeMethod(
      this, [this, event] { deliver(event); }, Qt::QueuedConnection);
}

void AgentBridge::flushTokens() {
  std::vector<std::pair<int, std::string>> batch;
  {
    std::lock_guard lock(tokensMutex_);
    batch.swap(pendingTokens_);
  }
  if (batch.empty()) return;
  // Coalesce consecutive deltas of one iteration into one append.
  int id = batch.front().first;
  std::string text;
  for (auto& [i, t] : batch) {
    if (i != id) {
      emit tokensStreamed(id, QString::fromStdString(text));
      text.clear();
      id = i;
    }
    text += t;
  }
  emit tokensStreamed(id, QString::fromStdString(text));
}

void AgentBridge::setStepping(bool on) {
  if (stepping_ == on) return;
  stepping_ = on;
  emit steppingChanged(on);
}

void AgentBridge::stepOneIteration() {
  setStepping(true);
  loop_->step();
}

void AgentBridge::acceptInBackground(int iterationId, const QString& exportDir) {
  if (exportThread_.joinable()) {
    emit exportFailed(iterationId, tr("another export is still being written"));
    return;
  }
  emit exportStarted(iterationId, exportDir);
  AgentLoop* loop = loop_.get();
  const std::string dir = exportDir.toStdString();
  exportThread_ = std::thread([this, loop, iterationId, dir] {
    QString error;
    QString written;
    try {
      written = QString::fromStdString(loop->accept(iterationId, dir).string());
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    QMetaObject::invokeMethod(
        this, [this, iterationId, written, error] { finishExport(iterationId, written, error); },
        Qt::QueuedConnection);
  });
}

void AgentBridge::finishExport(int iterationId, const QString& exportDir, const QString& error) {
  if (exportThread_.joinable()) exportThread_.join();  // it ended: this call was its last act
  if (!error.isEmpty()) {
    qCWarning(lcUiAgent) << "export of iteration" << iterationId << "failed:" << error;
    emit exportFailed(iterationId, error);
    return;
  }
  // The loop's Accepted event (queued before this call) already updated the window.
  qCInfo(lcUiAgent) << "iteration" << iterationId << "exported to" << exportDir;
}

void AgentBridge::deliver(const AgentEvent& event) {
  ++delivered_;
  std::visit(
      [this](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, agent_event::StateChanged>) {
          const QString s = QString::fromUtf8(agentStateName(e.state).data());
          qCInfo(lcUiAgent) << "agent state" << s << e.detail.c_str();
          if (e.state == AgentState::Stopped || e.state == AgentState::Finished) setStepping(false);
          emit stateChanged(e.state, e.iterationId, QString::fromStdString(e.detail));
          emit agentStateChanged(s);
          if (e.state == AgentState::Paused && stepping_) loop_->step();  // the iteration's next phase
        } else if constexpr (std::is_same_v<T, agent_event::IterationStarted>) {
          flushTokens();
          inFlight_.insert(e.iteration.id);
          emit iterationUpdated(e.iteration);
        } else if constexpr (std::is_same_v<T, agent_event::IterationUpdated>) {
          flushTokens();
          emit iterationUpdated(e.iteration);
        } else if constexpr (std::is_same_v<T, agent_event::IterationFinished>) {
          flushTokens();
          inFlight_.erase(e.iteration.id);
          if (stepping_ && inFlight_.empty()) {
            // The step's iteration is done. pause() also drops any phase granted for a pause whose
            // event came late, so the loop stops at the next boundary and starts no other iteration.
            setStepping(false);
            loop_->pause();
          }
          emit iterationUpdated(e.iteration);
        } else if constexpr (std::is_same_v<T, agent_event::ConstraintsChanged>) {
          emit constraintsChanged(loop_->snapshot().constraints);
        } else if constexpr (std::is_same_v<T, agent_event::Accepted>) {
          emit acceptedChanged(e.iterationId, QString::fromStdString(e.exportDir));
        } else if constexpr (std::is_same_v<T, agent_event::Error>) {
          qCWarning(lcUiAgent) << "agent error:" << e.message.c_str();
          emit errorReported(QString::fromStdString(e.message));
        } else if constexpr (std::is_same_v<T, agent_event::LlmRetry>) {
          // attempt counts retries (1 = the first retry); the limit is the provider's max_retries.
          const QString of = maxRetries_ > 0 ? QStringLiteral("%1/%2").arg(e.attempt).arg(maxRetries_)
                                             : QString::number(e.attempt);
          const double seconds = static_cast<double>(e.waitMs) / 1000.0;
          const QString text = tr("Iteration %1: retrying (%2) in %3 s: %4")
                                   .arg(e.iterationId)
                                   .arg(of)
                                   .arg(seconds, 0, 'f', seconds < 10 && e.waitMs % 1000 != 0 ? 1 : 0)
                                   .arg(QString::fromStdString(e.reason));
          qCInfo(lcUiAgent) << text;
          emit llmRetry(e.iterationId, e.attempt, e.waitMs, text);
        } else if constexpr (std::is_same_v<T, agent_event::StreamRestarted>) {
          emit streamRestarted(e.iterationId);
        }
        // DiagnosticsReported and ProfileReady arrive inside the IterationUpdated that follows them.
      },
      event);
}

void AgentBridge::connectWindow() {
  connect(window_, &MainWindow::startRequested, this, [this] {
    setStepping(false);
    if (loop_->state() == AgentState::Paused)
      loop_->resume();
    else
      loop_->start();
  });
  connect(window_, &MainWindow::pauseRequested, this, [this] {
    setStepping(false);
    loop_->pause();
  });
  connect(window_, &MainWindow::stepRequested, this, &AgentBridge::stepOneIteration);
  connect(window_, &MainWindow::stopRequested, this, [this] {
    setStepping(false);
    loop_->stop();
  });
  connect(window_, &MainWindow::hintRequested, this, [this](const QString& h) {
    loop_->queueHint(h.toStdString());
    emit noticeReported(tr("Hint queued for the next prompt"));
  });
  connect(window_, &MainWindow::runEditRequested, this,
          [this](const QString& file, const QString& source, std::optional<int> parent) {
            Candidate c;
            // The edited file replaces its version in the candidate it came from; the other files of a
            // multi-file candidate (the headers the primary file includes) stay.
            if (parent) {
              const Session s = loop_->snapshot();
              if (const Iteration* from = s.findIteration(*parent)) c.files = from->candidate.files;
            }
            c.origin = Origin::Human;
            c.files[file.toStdString()] = source.toStdString();
            loop_->submitEdit(std::move(c), parent);
          });
  connect(window_, &MainWindow::rollbackRequested, this, [this](int id) {
    try {
      loop_->rollbackTo(id);
      emit noticeReported(tr("The next round branches from iteration %1").arg(id));
    } catch (const std::exception& e) {
      emit requestFailed(QString::fromUtf8(e.what()));
    }
  });
  connect(window_, &MainWindow::acceptRequested, this, &AgentBridge::acceptInBackground);
  connect(window_, &MainWindow::addRuleRequested, this,
          [this](const QString& rule) { loop_->pinConstraint(Constraint::rule(rule.toStdString())); });
  connect(window_, &MainWindow::fixParameterRequested, this,
          [this](const QString& name, const QString& value) {
            bool isInt = false;
            const long long v = value.toLongLong(&isInt);
            loop_->pinConstraint(Constraint::fixParameter(
                name.toStdString(), isInt ? nlohmann::json(v) : nlohmann::json(value.toStdString())));
          });
  connect(window_, &MainWindow::lockLinesRequested, this,
          [this](const QString& file, const QString& source, int a, int b) {
            try {
              loop_->pinConstraint(Constraint::lockRegion(file.toStdString(), source.toStdString(), a, b));
            } catch (const std::exception& e) {
              emit requestFailed(QString::fromUtf8(e.what()));
            }
          });
  connect(window_, &MainWindow::unpinRequested, this, [this](int id) { loop_->unpinConstraint(id); });
}

}  // namespace kwb::ui
