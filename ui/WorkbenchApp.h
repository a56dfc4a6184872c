#pragma once
// Wires the workbench together: the main window, the provider settings, and (when a provider is
// configured) a live agent session on a task through AgentBridge. Without a provider the window says so,
// offers the settings and the lessons, and leaves no button silently dead.

#include <QObject>
#include <QString>
#include <memory>

#include "core/llm/LlmEndpointConfig.h"

namespace kwb::ui {

class MainWindow;
class AgentBridge;

class WorkbenchApp : public QObject {
  Q_OBJECT
 public:
  explicit WorkbenchApp(QString resourcesDir, QObject* parent = nullptr);
  ~WorkbenchApp() override;

  MainWindow* window() const { return window_.get(); }
  AgentBridge* bridge() const { return bridge_.get(); }

  // Shows `taskDir` and, when the provider is usable, creates a session for it under `sessionsRoot`.
  // Returns false with the reason on the status bar when the task or session cannot be set up.
  bool startOnTask(const QString& taskDir, const LlmEndpointConfig& provider, const QString& sessionsRoot,
                   const QString& backend = QStringLiteral("ascend-sim"));
  QString sessionDir() const { return sessionDir_; }
  QString lastError() const { return lastError_; }

 private:
  void showSettings();
  void showLessons();
  void showNewSession();

  QString resourcesDir_;
  QString sessionDir_;
  QString lastError_;
  QString currentTask_;
  std::unique_ptr<MainWindow> window_;
  std::unique_ptr<AgentBridge> bridge_;
};

}  // namespace kwb::ui
