// SPDX-License-Identifier: MIT
#pragma once
// Connects an AgentLoop (core, its own thread) to the GUI thread. Loop events arrive on the loop's
// threads and are only queued here; streamed tokens are batched and flushed every 50 ms so a fast stream
// never floods the event loop. What the loop reports leaves the bridge as typed Qt signals (GUI thread)
// that the window and its panels subscribe to; the window's requests become loop control calls, which
// return at once. Accepting exports on a worker thread. Nothing here blocks the GUI thread
// (docs/architecture.md, "The GUI and the agent").

#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "core/agent/AgentEvents.h"
#include "core/agent/AgentLoop.h"

namespace kwb::ui {

class MainWindow;

class AgentBridge : public QObject, public AgentObserver {
  Q_OBJECT
 public:
  // Takes ownership of the loop and wires itself to `window` (its signals to the window's update slots,
  // the window's request signals to the loop); the window must outlive the bridge.
  AgentBridge(std::unique_ptr<AgentLoop> loop, MainWindow* window, QObject* parent = nullptr);
  ~AgentBridge() override;

  AgentLoop& loop() { return *loop_; }
  // Disconnects from the loop, asks it to stop and hands it over, so the caller can let it wind down
  // (finish the step in flight, join its thread) away from the GUI thread. The bridge is inert after.
  // An export in flight is finished first: it writes a few small files and uses the loop.
  std::unique_ptr<AgentLoop> releaseLoop();
  void onAgentEvent(const AgentEvent& event) override;  // any thread
  // Events delivered so far (tests).
  int deliveredEvents() const { return delivered_; }
  // The provider's retries beyond the first request, for "retrying (2/3)"; unknown (0) shows "(2)".
  void setLlmRetryLimit(int maxRetries) { maxRetries_ = maxRetries; }

  // Step runs one whole iteration: the loop's own step is one phase (core/agent/AgentLoop.h), so the
  // bridge grants a phase at each pause until an iteration ended with none left in flight, then
  // pauses the loop (docs/workbench.md, "Why Step is one iteration").
  void stepOneIteration();
  bool stepping() const { return stepping_; }
  // Exports on a worker thread; exportStarted now, acceptedChanged or exportFailed when it is done.
  void acceptInBackground(int iterationId, const QString& exportDir);
  bool exporting() const { return exportThread_.joinable(); }

 signals:
  void agentStateChanged(const QString& state);  // the state's name, for logs and tests
  void stateChanged(kwb::AgentState state, std::optional<int> iterationId, const QString& detail);
  void iterationUpdated(const kwb::Iteration& iteration);
  void tokensStreamed(int iterationId, const QString& text);
  void streamRestarted(int iterationId);
  // `text` is ready for the status bar: "retrying (2/3) in 2 s: http 503: ..."
  void llmRetry(int iterationId, int attempt, long long waitMs, const QString& text);
  void constraintsChanged(const std::vector<kwb::Constraint>& constraints);
  void acceptedChanged(int iterationId, const QString& exportDir);
  void exportStarted(int iterationId, const QString& exportDir);
  void exportFailed(int iterationId, const QString& reason);
  void steppingChanged(bool stepping);
  void errorReported(const QString& message);
  // A control request the loop refused (a roll back to an unknown iteration, a lock it cannot place).
  void requestFailed(const QString& message);
  void noticeReported(const QString& message);

 private:
  void deliver(const AgentEvent& event);  // GUI thread
  void flushTokens();
  void connectWindow();
  void setStepping(bool on);
  void finishExport(int iterationId, const QString& exportDir, const QString& error);

  std::unique_ptr<AgentLoop> loop_;
  MainWindow* window_;
  QTimer tokenTimer_;
  std::mutex tokensMutex_;
  std::vector<std::pair<int, std::string>> pendingTokens_;
  int delivered_ = 0;
  int maxRetries_ = 0;
  bool stepping_ = false;
  std::set<int> inFlight_;  // iterations started and not finished
  std::thread exportThread_;
};

}  // namespace kwb::ui
