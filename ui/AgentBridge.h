// SPDX-License-Identifier: MIT
#pragma once
// Connects an AgentLoop (core, its own thread) to the MainWindow (GUI thread). Loop events arrive on
// the loop's threads and are only queued here; streamed tokens are batched and flushed every 50 ms so a
// fast stream never floods the event loop. Window requests become loop control calls, which return at
// once. Nothing here blocks the GUI thread.

#include <QObject>
#include <QTimer>
#include <memory>
#include <mutex>
#include <vector>

#include "core/agent/AgentEvents.h"
#include "core/agent/AgentLoop.h"

namespace kwb::ui {

class MainWindow;

class AgentBridge : public QObject, public AgentObserver {
  Q_OBJECT
 public:
  // Takes ownership of the loop; the window must outlive the bridge.
  AgentBridge(std::unique_ptr<AgentLoop> loop, MainWindow* window, QObject* parent = nullptr);
  ~AgentBridge() override;

  AgentLoop& loop() { return *loop_; }
  // Disconnects from the loop, asks it to stop and hands it over, so the caller can let it wind down
  // (finish the step in flight, join its thread) away from the GUI thread. The bridge is inert after.
  std::unique_ptr<AgentLoop> releaseLoop();
  void onAgentEvent(const AgentEvent& event) override;  // any thread
  // Events delivered to the window so far (tests).
  int deliveredEvents() const { return delivered_; }

 signals:
  void agentStateChanged(const QString& state);

 private:
  void deliver(const AgentEvent& event);  // GUI thread
  void flushTokens();
  void connectWindow();

  std::unique_ptr<AgentLoop> loop_;
  MainWindow* window_;
  QTimer tokenTimer_;
  std::mutex tokensMutex_;
  std::vector<std::pair<int, std::string>> pendingTokens_;
  int delivered_ = 0;
};

}  // namespace kwb::ui
