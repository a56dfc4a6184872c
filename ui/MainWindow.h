// SPDX-License-Identifier: MIT
#pragma once
// The workbench main window: the kernel editor in the middle, the iteration timeline on the left,
// diagnostics and the conversation below, profile / trace / diff / constraints on the right, steering
// controls in the toolbar. It shows a Session; the agent connection (AgentBridge) drives it live
// through the update slots and listens to the request signals.

#include <QMainWindow>
#include <filesystem>
#include <map>
#include <optional>

#include "core/agent/Lesson.h"
#include "core/model/Session.h"
#include "ui/SessionHistory.h"

class QTreeView;
class QTabWidget;
class QLabel;
class QAction;
class QScrollArea;
class QMenu;
class QSplitter;
class QTimer;

namespace kwb::ui {

class KernelEditor;
class LatencyChart;
class PipeUtilizationChart;
class PipelineTraceView;
class DiffView;
class DiagnosticsPanel;
class ConversationPanel;
class ConstraintsPanel;
class TimelineModel;
class LessonNotesPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Shows a task's expert candidate with no session yet. Returns false (reason in the status bar)
  // when the folder cannot be read.
  bool openTask(const QString& dir);
  // Shows a session; `sessionDir` locates artifacts (traces, transcripts) on disk.
  void showSession(const Session& session, std::optional<std::filesystem::path> sessionDir = {});
  // Copies the shown session folder (everything but its lock) to `target`, which must not exist yet.
  // Sessions are autosaved as they go; this is "save a copy" for sharing or archiving.
  bool saveSessionCopy(const QString& target);

  // Teaching mode: with a lesson, the explanation of the selected iteration's step sits beside its diff.
  void setLesson(std::optional<Lesson> lesson);
  bool teaching() const { return lesson_.has_value(); }
  // The lesson step an iteration plays: the k-th replayed iteration (by id) is step k (0-based).
  std::optional<int> lessonStepOf(int iterationId) const;
  void showLessonStep(int index);

  // The view to restore when the session is reopened, and restoring it.
  SessionViewState viewState() const;
  void restoreViewState(const SessionViewState& state);
  void setRecentSessions(const QList<RecentSession>& sessions);
  std::optional<std::filesystem::path> sessionDir() const { return sessionDir_; }

  void selectIteration(int id);
  // Shows any two iterations in the diff (left = older reference, right = the one compared).
  void compareIterations(int leftId, int rightId);
  std::optional<int> selectedIteration() const { return selected_; }
  const Session& session() const { return session_; }

  // Live updates (GUI thread only; the bridge queues them here).
  void updateIteration(const Iteration& iteration);
  void appendStreamedText(int iterationId, const QString& delta);
  void setAgentStatus(const QString& state, const QString& detail);
  QString elapsedText() const;
  void setConstraints(const std::vector<Constraint>& constraints);
  void setAccepted(std::optional<int> iterationId);
  // Enables Start/Pause/Step/Stop/Hint/Accept/Roll back; when unavailable, `reason` is shown on them.
  void setAgentAvailable(bool available, const QString& reason);

  // Panels, for tests and screenshots.
  KernelEditor* editor() const { return editor_; }
  LatencyChart* latencyChart() const { return latency_; }
  PipeUtilizationChart* pipeChart() const { return pipes_; }
  PipelineTraceView* traceView() const { return trace_; }
  DiffView* diffView() const { return diff_; }
  DiagnosticsPanel* diagnosticsPanel() const { return diagnostics_; }
  ConversationPanel* conversationPanel() const { return conversation_; }
  ConstraintsPanel* constraintsPanel() const { return constraints_; }
  LessonNotesPanel* lessonNotes() const { return lessonNotes_; }
  QSplitter* diffTab() const { return diffTab_; }
  QMenu* recentMenu() const { return recentMenu_; }
  TimelineModel* timelineModel() const { return timeline_; }
  QTreeView* timelineView() const { return timelineView_; }
  QTabWidget* rightTabs() const { return rightTabs_; }
  QTabWidget* bottomTabs() const { return bottomTabs_; }
  QString shownFile() const { return shownFile_; }
  QAction* action(const QString& name) const;

 signals:
  void startRequested();
  void pauseRequested();
  void stepRequested();
  void stopRequested();
  void hintRequested(const QString& hint);
  void runEditRequested(const QString& fileName, const QString& source, std::optional<int> parentId);
  void rollbackRequested(int iterationId);
  void acceptRequested(int iterationId, const QString& exportDir);
  void addRuleRequested(const QString& rule);
  void lockLinesRequested(const QString& fileName, int startLine, int endLine);
  void fixParameterRequested(const QString& name, const QString& value);
  void unpinRequested(int constraintId);
  void newSessionRequested();
  void openSessionRequested(const QString& dir);

 private:
  void buildActions();
  void buildDocks();
  void refreshLatency();
  void showIterationArtifacts(const Iteration& it);
  void exportTrace();
  void askHint();
  void askAccept();
  void lockSelection();
  void showTimelineMenu(const QPoint& pos);

  Session session_;
  std::optional<std::filesystem::path> sessionDir_;
  std::optional<int> selected_;
  QString shownFile_;
  bool agentAvailable_ = false;

  KernelEditor* editor_;
  QLabel* editorHeader_;
  LatencyChart* latency_;
  PipeUtilizationChart* pipes_;
  PipelineTraceView* trace_;
  QScrollArea* traceScroll_;
  DiffView* diff_;
  DiagnosticsPanel* diagnostics_;
  ConversationPanel* conversation_;
  ConstraintsPanel* constraints_;
  LessonNotesPanel* lessonNotes_;
  QSplitter* diffTab_;
  QMenu* recentMenu_ = nullptr;
  std::optional<Lesson> lesson_;
  TimelineModel* timeline_;
  QTreeView* timelineView_;
  QTabWidget* rightTabs_;
  QTabWidget* bottomTabs_;
  QLabel* stateLabel_;
  QLabel* iterationLabel_;
  QLabel* tokensLabel_;
  QLabel* elapsedLabel_;
  // Time the agent spent working in this window (paused and finished time excluded).
  qint64 elapsedMs_ = 0;
  qint64 clockStartedMs_ = -1;
  QTimer* clockTimer_;
  void refreshElapsed();
  // Per constraint id, how many iterations of the session it rejected.
  std::map<int, int> rejectionCounts() const;
  QLabel* backendLabel_;
  std::map<QString, QAction*> actions_;
};

}  // namespace kwb::ui
