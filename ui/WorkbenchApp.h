// SPDX-License-Identifier: MIT
#pragma once
// Wires the workbench together: the main window, the provider settings, and (when a provider is
// configured) a live agent session on a task through AgentBridge. Without a provider the window says so,
// offers the settings and the lessons, and leaves no button silently dead. It also keeps the session
// history: recent sessions, and the view each session was left in (restored when it is reopened).

#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "core/agent/Lesson.h"
#include "core/llm/LlmEndpointConfig.h"
#include "core/model/Session.h"

namespace kwb {
class LlmClient;
class SessionStore;
}  // namespace kwb

namespace kwb::ui {

class MainWindow;
class AgentBridge;

// One line about the LLM provider in use (never the key), for dialogs and the status bar.
QString describeProvider(const LlmEndpointConfig& config);

class WorkbenchApp : public QObject {
  Q_OBJECT
 public:
  // `sessionsRoot` is where new sessions are created (default: the standard application data folder).
  explicit WorkbenchApp(QString resourcesDir, QString sessionsRoot = {}, QObject* parent = nullptr);
  ~WorkbenchApp() override;

  MainWindow* window() const { return window_.get(); }
  AgentBridge* bridge() const { return bridge_.get(); }

  // Shows `taskDir` and, when the provider is usable, creates a session for it under `sessionsRoot`.
  // Returns false with the reason on the status bar when the task or session cannot be set up.
  bool startOnTask(const QString& taskDir, const LlmEndpointConfig& provider, const QString& sessionsRoot,
                   const QString& backend = QStringLiteral("ascend-sim"));
  // Teaching mode: plays a lesson (by name or folder) into a new session with its recorded replies on
  // the emulator; each step's explanation is shown beside the diff of the iteration it produced.
  bool openLesson(const QString& nameOrDir);
  // Reopens a session folder with its whole tree and the view it was left in. With a provider (or a
  // lesson's replay) the agent continues it; when it cannot (no provider, the lock is held elsewhere)
  // the session is shown read-only and the status bar says why.
  bool openSession(const QString& dir);

  QString sessionDir() const { return sessionDir_; }
  QString lastError() const { return lastError_; }
  QString sessionsRoot() const { return sessionsRoot_; }

 private:
  // `base` carries the backend, SoC and limits; the provider fields are filled in here.
  bool startSession(const QString& taskDir, const LlmEndpointConfig& provider, const QString& sessionsRoot,
                    SessionSettings base, const std::optional<Lesson>& lesson);
  void attachLoop(SessionStore store, std::shared_ptr<LlmClient> llm, const QString& sessionDir);
  void rememberView();
  // Ends the current session's agent without blocking the GUI thread: the loop is stopped here and
  // destroyed (its thread joined) on a helper thread, since the step in flight may take seconds.
  void retireBridge();
  void refreshRecent();
  // Returns true when the engineer saved new settings.
  bool showSettings();
  void showLessons();
  void showNewSession();

  QString resourcesDir_;
  QString sessionsRoot_;
  QString sessionDir_;
  QString lastError_;
  QString currentTask_;
  std::unique_ptr<MainWindow> window_;
  std::unique_ptr<AgentBridge> bridge_;
  std::vector<std::thread> retiring_;  // joined in the destructor
};

}  // namespace kwb::ui
