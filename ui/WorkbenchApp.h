// SPDX-License-Identifier: MIT
#pragma once
// Wires the workbench together: the main window, the provider settings, and (when a provider is
// configured) a live agent session on a task through AgentBridge. Without a provider the window says so,
// offers the settings and the lessons, and leaves no button silently dead. It also keeps the session
// history: recent sessions, and the view each session was left in (restored when it is reopened).

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "core/agent/Lesson.h"
#include "core/llm/LlmEndpointConfig.h"
#include "core/model/Session.h"
#include "ui/ProviderSettings.h"

namespace kwb {
class CandidateEvaluator;
class LlmClient;
class SessionStore;
namespace remote {
class SshExecutorSetup;
}
}  // namespace kwb

namespace kwb::ui {

class MainWindow;
class AgentBridge;
class SuiteView;
struct OpenedSession;
struct LessonCatalog;

// One line about the LLM provider in use (never the key), for dialogs and the status bar; it names the
// KWB_LLM_* variables that override stored settings.
QString describeProvider(const LlmEndpointConfig& config,
                         const std::vector<ProviderOverride>& overrides = {});

// What the command line asks for (app/workbench/main.cpp).
struct LaunchRequest {
  QString taskDir;          // the task shown when nothing else opens
  QString sessionDir;       // --session DIR
  QString lesson;           // --lesson NAME
  QString suiteDir;         // --suite DIR: its suite view opens over whatever else opens
  bool reopenLast = false;  // a plain launch: reopen the most recent session when it still opens
};

class WorkbenchApp : public QObject {
  Q_OBJECT
 public:
  // `sessionsRoot` is where new sessions are created (default: the standard application data folder).
  explicit WorkbenchApp(QString resourcesDir, QString sessionsRoot = {}, QObject* parent = nullptr);
  ~WorkbenchApp() override;

  // Opens what `request` asks for; when that cannot be opened, the task, with the reason on the status
  // bar. `done(false)` when a session or lesson asked for could not be opened. A session is read off
  // the GUI thread, so `done` may run after this returns (on the GUI thread).
  void launch(const LaunchRequest& request, const std::function<void(bool)>& done = {});

  MainWindow* window() const { return window_.get(); }
  AgentBridge* bridge() const { return bridge_.get(); }

  // Shows `taskDir` and, when the provider is usable, creates a session for it under `sessionsRoot`.
  // `backend`: ascend-sim, ascend-cann, or kRemoteBackendChoice (ascend-cann on the remote NPU host of
  // Settings ▸ Backend). Returns false with the reason on the status bar when the task or session cannot
  // be set up.
  bool startOnTask(const QString& taskDir, const LlmEndpointConfig& provider, const QString& sessionsRoot,
                   const QString& backend = QStringLiteral("ascend-sim"));
  // Teaching mode: plays a lesson (by name or folder) into a new session with its recorded replies on
  // the emulator; each step's explanation is shown beside the diff of the iteration it produced.
  bool openLesson(const QString& nameOrDir);
  // Reopens a session folder with its whole tree and the view it was left in. With a provider (or a
  // lesson's replay) the agent continues it, building on the iteration it was left on; when it cannot
  // (no provider, the lock is held elsewhere) the session is shown read-only and the status bar says
  // why. The folder is read once, off the GUI thread; `done` (and sessionOpenFinished) report the
  // outcome on the GUI thread. A folder that is not a session leaves the open session as it was.
  void openSession(const QString& dir, std::function<void(bool)> done = {});

  // Opens the suite view over a suite folder (kwb suite run --out DIR) in its own window; double-clicking
  // a sample opens its session here (openSession). The view reads the folder off the GUI thread.
  SuiteView* openSuite(const QString& dir);

  QString sessionDir() const { return sessionDir_; }
  QString lastError() const { return lastError_; }
  QString sessionsRoot() const { return sessionsRoot_; }

 signals:
  void sessionOpenFinished(const QString& dir, bool ok);

 private:
  // `base` carries the backend, SoC and limits; the provider fields are filled in here. `remoteHost`:
  // the ssh:// address the session evaluates on (base.backend is then ascend-cann), checked before the
  // session folder is made; nullopt: here.
  bool startSession(const QString& taskDir, const LlmEndpointConfig& provider, const QString& sessionsRoot,
                    SessionSettings base, const std::optional<Lesson>& lesson,
                    const std::optional<QString>& remoteHost = std::nullopt);
  // `resumeFrom`: the iteration the first round builds on (the one a reopened session was left on).
  void attachLoop(SessionStore store, std::shared_ptr<LlmClient> llm, const QString& sessionDir,
                  std::optional<int> resumeFrom = std::nullopt, const QString& remoteHost = {});
  // The evaluator of a session (WorkbenchRemote.cpp): with `remoteHost`, ascend-cann on that host as the
  // CLI's ssh executor makes it (the shared SshExecutorSetup, the host probed on the agent's thread at
  // the first evaluation); else the backend the session names. Throws when the host settings are unusable.
  std::shared_ptr<CandidateEvaluator> makeSessionEvaluator(const Session& session, int caseTimeoutSeconds,
                                                           const QString& remoteHost,
                                                           std::shared_ptr<remote::SshExecutorSetup>& setup);
  // Probes the session's host on a helper thread and shows what it offers (or why it does not answer)
  // in the status bar's backend label, while that session is still shown.
  void probeSessionHost(std::shared_ptr<remote::SshExecutorSetup> setup, const QString& sessionDir,
                        const std::string& soc);
  // The backend label of a session evaluated on this machine or on `remoteHost`, before its probe.
  void showSessionBackend(const Session& session, const QString& remoteHost);
  // Saves the shown session's view and its Open recent line.
  void rememberView();
  bool showOpenedSession(const QString& dir, OpenedSession opened);
  bool eventFilter(QObject* watched, QEvent* event) override;
  // Closing while the agent works: asks, and stops the agent when the engineer confirms.
  bool confirmClose();
  // Ends the current session's agent without blocking the GUI thread: the loop is stopped here and
  // destroyed (its thread joined) on a helper thread, since the step in flight may take seconds.
  void retireBridge();
  void refreshRecent();
  // Returns true when the engineer saved new settings. `backendPage`: open on Settings ▸ Backend.
  bool showSettings(bool backendPage = false);
  // Reads the lessons on a helper thread, then asks which one to play (chooseLesson).
  void showLessons();
  void chooseLesson(const QString& lessonsDir, const LessonCatalog& catalog);
  void showNewSession();

  QString resourcesDir_;
  QString sessionsRoot_;
  QString sessionDir_;
  QString lastError_;
  QString currentTask_;
  std::unique_ptr<MainWindow> window_;
  std::unique_ptr<AgentBridge> bridge_;
  std::vector<std::thread> retiring_;  // retired loops and session reads; joined in the destructor
  int openTicket_ = 0;                 // the latest open or new session; older reads are dropped
};

}  // namespace kwb::ui
