// SPDX-License-Identifier: MIT
#pragma once
// The workbench main window: the kernel editor in the middle with most of the width, the iteration
// timeline and the feedback (diagnostics, conversation) below it, profile / trace / diff / constraints on
// the right, steering controls in the toolbar (the layout: MainWindowLayout.cpp). It shows a Session; the
// agent connection (AgentBridge) drives it live through the update slots and listens to the request signals.

#include <QMainWindow>
#include <filesystem>
#include <map>
#include <optional>

#include "core/agent/AgentEvents.h"
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
class FirstRunTour;
class AgentBridge;

// The QAction property holding an action's tooltip without the reason it is disabled.
inline constexpr const char* kBaseToolTip = "kwbBaseToolTip";
class IterationArtifactLoader;
struct IterationArtifacts;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Shows a task's starting point (what the agent starts from: its README, no kernel yet) with no
  // session yet; the expert solution only on request (View ▸ Show the expert solution). Returns false
  // (reason in the status bar) when the folder cannot be read.
  bool openTask(const QString& dir);
  // Loads the task's expert_candidate.cpp into the editor (a spoiler, so never by default).
  void showExpertSolution();
  // Shows a session; `sessionDir` locates artifacts (traces, transcripts) on disk.
  void showSession(const Session& session, std::optional<std::filesystem::path> sessionDir = {});
  // The status bar's backend label (showSession sets it from the session's backend): where a session on
  // a remote NPU host evaluates, and what its probe found there.
  void setBackendDescription(const QString& text, const QString& toolTip = {});
  QString backendDescription() const;
  // Copies the shown session folder (everything but its lock) to `target`, which must not exist yet.
  // Sessions are autosaved as they go; this is "save a copy" for sharing or archiving.
  bool saveSessionCopy(const QString& target);

  // Teaching mode: with a lesson, the explanation of the selected iteration's step sits beside its diff.
  void setLesson(std::optional<Lesson> lesson);
  bool teaching() const { return lesson_.has_value(); }
  // The lesson step an iteration plays: the k-th replayed iteration (by id) is step k (0-based).
  std::optional<int> lessonStepOf(int iterationId) const;
  void showLessonStep(int index);
  // The lesson's exercise (ui/MainWindowLesson.cpp): the starting kernel or the reference solution into
  // the editor, and grading the editor's kernel on a worker (exerciseGraded reports it).
  void startExercise();
  void showExerciseSolution();
  void checkExercise();
  // A lesson draft of the given iterations (kwb lesson make; docs/lessons.md), written on a worker into
  // outDir; lessonDraftWritten reports the lesson.json path or the error. askMakeLessonDraft asks where.
  void makeLessonDraft(const std::vector<int>& iterationIds, const QString& outDir);
  void showLessonDraftResult(bool ok, const QString& message);
  void askMakeLessonDraft(const std::vector<int>& iterationIds);
  // The first-run tour (ui/FirstRunTour.h), shown non-modally; maybeShowFirstRunTour only while the
  // user has neither finished nor skipped it.
  FirstRunTour* showTour();
  FirstRunTour* maybeShowFirstRunTour();

  // The view to restore when the session is reopened, and restoring it.
  SessionViewState viewState() const;
  void restoreViewState(const SessionViewState& state);
  void setRecentSessions(const QList<RecentSession>& sessions);
  std::optional<std::filesystem::path> sessionDir() const { return sessionDir_; }

  void selectIteration(int id);
  // Shows any two iterations in the diff (left = older reference, right = the one compared).
  void compareIterations(int leftId, int rightId);
  // The iterations selected in the timeline (Ctrl+click adds one), in id order.
  std::vector<int> selectedTimelineIterations() const;
  std::optional<int> selectedIteration() const { return selected_; }
  const Session& session() const { return session_; }

  // Subscribes the window and its panels to the bridge's signals and makes the agent controls
  // available; the bridge calls it once, when it is created for this window.
  void attachAgent(AgentBridge* bridge);

  // Live updates (GUI thread only; the bridge's signals arrive here).
  void updateIteration(const Iteration& iteration);
  // Streams into the editor, or, while the editor holds the engineer's unsaved edit, into the
  // conversation panel: an edit is never cleared by the agent (docs/workbench.md, "Your edits").
  void appendStreamedText(int iterationId, const QString& delta);
  void restartStream(int iterationId);
  void setAgentState(AgentState state, std::optional<int> iterationId, const QString& detail);
  void setAgentStatus(const QString& state, const QString& detail);
  void showLlmRetry(int iterationId, const QString& text);
  QString elapsedText() const;
  void setConstraints(const std::vector<Constraint>& constraints);
  void setAccepted(std::optional<int> iterationId);
  void showExported(int iterationId, const QString& exportDir);
  void setStepping(bool stepping);
  void setExportInFlight(std::optional<int> iterationId, const QString& exportDir);
  // Enables the agent controls that can act in the agent's state; when unavailable, `reason` is shown.
  void setAgentAvailable(bool available, const QString& reason);
  // Whether the editor holds the engineer's unsaved edit (not streamed text).
  bool editorHoldsEdit() const;
  // The iteration whose reply streams now, if any, and whether it streams into the editor.
  std::optional<int> streamingIteration() const { return streamingIteration_; }
  bool streamingIntoEditor() const { return streamingIteration_ && !streamToConversation_; }
  // An edit put aside when another iteration was selected; "Restore edit" brings it back.
  bool hasSetAsideEdit() const { return setAsideEdit_.has_value(); }
  void restoreSetAsideEdit();

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
  IterationArtifactLoader* artifactLoader() const { return artifacts_; }
  QLabel* traceCaseLabel() const { return traceCaseLabel_; }
  QLabel* stateLabel() const { return stateLabel_; }
  QString aboutText() const;
  // The layout a fresh configuration starts with (View ▸ Reset the layout).
  void applyDefaultLayout();

 signals:
  void exerciseGraded(bool passed, const QString& summary);
  void lessonDraftWritten(bool ok, const QString& message);
  void startRequested();
  void pauseRequested();
  void stepRequested();
  void stopRequested();
  void hintRequested(const QString& hint);
  void runEditRequested(const QString& fileName, const QString& source, std::optional<int> parentId);
  void rollbackRequested(int iterationId);
  void acceptRequested(int iterationId, const QString& exportDir);
  void addRuleRequested(const QString& rule);
  // `source` is the text the lines are taken from (the editor's, as shown).
  void lockLinesRequested(const QString& fileName, const QString& source, int startLine, int endLine);
  void fixParameterRequested(const QString& name, const QString& value);
  void unpinRequested(int constraintId);
  void newSessionRequested();
  void openSessionRequested(const QString& dir);
  void openSuiteRequested(const QString& dir);

 private:
  void buildActions();
  void buildDocks();
  void buildViewMenus();
  int timelineContentWidth() const;
  void widenForLesson();
  // The diff for the current selection: the two chosen iterations, else the selected one against its
  // parent, or against the task's starting point for the first iteration.
  void refreshDiff();
  void applyArtifacts(const IterationArtifacts& artifacts);
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;
  void refreshLatency();
  void showIterationArtifacts(const Iteration& it);
  void exportTrace();
  void askHint();
  void askAccept();
  void lockSelection();
  void showTimelineMenu(const QPoint& pos);
  // Shows an iteration in the editor and the panels (selectIteration without the edit bookkeeping).
  void showIteration(int id);
  void refreshLockedRanges();
  void refreshConstraintCounts();
  void refreshActions();
  void endStream();
  // The editor shows the reply streaming for `iterationId` (from its start) and follows it.
  void followStream(int iterationId);
  // Forgets the agent's live state and any edit set aside (another session is shown).
  void resetAgentView();
  // Why Accept cannot export the selected iteration; empty when it can.
  QString acceptRefusal() const;

  Session session_;
  std::optional<std::filesystem::path> sessionDir_;
  std::optional<int> selected_;
  QString shownFile_;
  QString taskDir_;
  bool agentAvailable_ = false;
  QString unavailableReason_;
  std::optional<AgentState> agentState_;
  bool stepping_ = false;
  std::optional<int> exportingIteration_;
  std::optional<int> streamingIteration_;
  bool streamToConversation_ = false;
  QString streamedText_;   // the reply streamed so far, to show it again when its iteration is selected
  bool retrying_ = false;  // the status bar shows an LLM retry until the reply streams again
  struct SetAsideEdit {
    std::optional<int> iterationId;
    QString fileName;
    QString text;
  };
  std::optional<SetAsideEdit> setAsideEdit_;
  bool restoringTimeline_ = false;
  bool layoutApplied_ = false;
  // Teaching mode, one step per click: the step being played, and the iteration shown when it ended.
  std::optional<int> lessonTarget_;
  std::optional<int> lessonHold_;
  IterationArtifactLoader* artifacts_;
  QLabel* traceCaseLabel_ = nullptr;
  QMenu* helpMenu_ = nullptr;
  std::optional<double> shownBaselineUs_;  // what the timeline's Speedup column divides by

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
  void noteLessonProgress(const Iteration& iteration);
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
  QLabel* evalTimingsLabel_;  // the shown iteration's evaluation, phase by phase (docs/benchmarks.md)
  std::map<QString, QAction*> actions_;
};

}  // namespace kwb::ui
