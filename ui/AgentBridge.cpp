// SPDX-License-Identifier: MIT
#include "ui/AgentBridge.h"

#include <QMessageBox>
#include <QMetaObject>

#include "ui/KernelEditor.h"
#include "ui/MainWindow.h"
#include "ui/UiLogging.h"

namespace kwb::ui {

AgentBridge::AgentBridge(std::unique_ptr<AgentLoop> loop, MainWindow* window, QObject* parent)
    : QObject(parent), loop_(std::move(loop)), window_(window) {
  tokenTimer_.setInterval(50);
  connect(&tokenTimer_, &QTimer::timeout, this, &AgentBridge::flushTokens);
  tokenTimer_.start();
  loop_->addObserver(this);
  connectWindow();
  window_->setAgentAvailable(true, {});
  window_->setAgentStatus(QString::fromUtf8(agentStateName(loop_->state()).data()), {});
}

AgentBridge::~AgentBridge() {
  if (!loop_) return;
  loop_->removeObserver(this);
  loop_->stop();
}

std::unique_ptr<AgentLoop> AgentBridge::releaseLoop() {
  tokenTimer_.stop();
  disconnect(window_, nullptr, this, nullptr);
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
  // Coalesce consecutive deltas of one iteration into one editor append.
  int id = batch.front().first;
  std::string text;
  for (auto& [i, t] : batch) {
    if (i != id) {
      window_->appendStreamedText(id, QString::fromStdString(text));
      text.clear();
      id = i;
    }
    text += t;
  }
  window_->appendStreamedText(id, QString::fromStdString(text));
}

void AgentBridge::deliver(const AgentEvent& event) {
  ++delivered_;
  std::visit(
      [this](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, agent_event::StateChanged>) {
          const QString s = QString::fromUtf8(agentStateName(e.state).data());
          qCInfo(lcUiAgent) << "agent state" << s << e.detail.c_str();
          window_->setAgentStatus(s, QString::fromStdString(e.detail));
          emit agentStateChanged(s);
        } else if constexpr (std::is_same_v<T, agent_event::IterationStarted> ||
                             std::is_same_v<T, agent_event::IterationUpdated> ||
                             std::is_same_v<T, agent_event::IterationFinished>) {
          flushTokens();
          window_->updateIteration(e.iteration);
        } else if constexpr (std::is_same_v<T, agent_event::ConstraintsChanged>) {
          window_->setConstraints(loop_->snapshot().constraints);
        } else if constexpr (std::is_same_v<T, agent_event::Accepted>) {
          window_->setAccepted(e.iterationId);
          window_->setAgentStatus(
              tr("accepted"),
              tr("Iteration %1 exported to %2").arg(e.iterationId).arg(QString::fromStdString(e.exportDir)));
        } else if constexpr (std::is_same_v<T, agent_event::Error>) {
          qCWarning(lcUiAgent) << "agent error:" << e.message.c_str();
          window_->setAgentStatus(tr("error"), QString::fromStdString(e.message));
        } else if constexpr (std::is_same_v<T, agent_event::LlmRetry>) {
          window_->setAgentStatus(tr("retrying"), tr("Iteration %1: LLM retry %2 in %3 s after %4")
                                                      .arg(e.iterationId)
                                                      .arg(e.attempt)
                                                      .arg(static_cast<double>(e.waitMs) / 1000.0, 0, 'f', 1)
                                                      .arg(QString::fromStdString(e.reason)));
        } else if constexpr (std::is_same_v<T, agent_event::StreamRestarted>) {
          window_->appendStreamedText(e.iterationId,
                                      QStringLiteral("\n/* -- retrying: the reply restarts -- */\n"));
        }
        // DiagnosticsReported and ProfileReady arrive inside the IterationUpdated that follows them.
      },
      event);
}

void AgentBridge::connectWindow() {
  connect(window_, &MainWindow::startRequested, this, [this] {
    if (loop_->state() == AgentState::Paused)
      loop_->resume();
    else
      loop_->start();
  });
  connect(window_, &MainWindow::pauseRequested, this, [this] { loop_->pause(); });
  connect(window_, &MainWindow::stepRequested, this, [this] { loop_->step(); });
  connect(window_, &MainWindow::stopRequested, this, [this] { loop_->stop(); });
  connect(window_, &MainWindow::hintRequested, this, [this](const QString& h) {
    loop_->queueHint(h.toStdString());
    window_->setAgentStatus(QString::fromUtf8(agentStateName(loop_->state()).data()),
                            tr("Hint queued for the next prompt"));
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
      window_->setAgentStatus(QString::fromUtf8(agentStateName(loop_->state()).data()),
                              tr("The next round branches from iteration %1").arg(id));
    } catch (const std::exception& e) {
      window_->setAgentStatus(tr("error"), QString::fromUtf8(e.what()));
    }
  });
  connect(window_, &MainWindow::acceptRequested, this, [this](int id, const QString& dir) {
    try {
      loop_->accept(id, dir.toStdString());
    } catch (const std::exception& e) {
      QMessageBox::warning(window_, tr("Cannot accept iteration %1").arg(id), QString::fromUtf8(e.what()));
    }
  });
  connect(window_, &MainWindow::addRuleRequested, this,
          [this](const QString& rule) { loop_->pinConstraint(Constraint::rule(rule.toStdString())); });
  connect(window_, &MainWindow::fixParameterRequested, this,
          [this](const QString& name, const QString& value) {
            bool isInt = false;
            const long long v = value.toLongLong(&isInt);
            loop_->pinConstraint(Constraint::fixParameter(
                name.toStdString(), isInt ? nlohmann::json(v) : nlohmann::json(value.toStdString())));
          });
  connect(window_, &MainWindow::lockLinesRequested, this, [this](const QString& file, int a, int b) {
    try {
      loop_->pinConstraint(
          Constraint::lockRegion(file.toStdString(), window_->editor()->text().toStdString(), a, b));
    } catch (const std::exception& e) {
      window_->setAgentStatus(tr("error"), QString::fromUtf8(e.what()));
    }
  });
  connect(window_, &MainWindow::unpinRequested, this, [this](int id) { loop_->unpinConstraint(id); });
}

}  // namespace kwb::ui
