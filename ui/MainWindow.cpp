// SPDX-License-Identifier: MIT
#include "ui/MainWindow.h"
#include "ui/ElidingStatusBar.h"
#include "ui/IterationArtifactLoader.h"
#include "ui/StyleStatusIcons.h"
#include "ui/UiLogging.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>

#include "core/agent/SessionSummary.h"
#include "core/base/TextFile.h"
#include "core/profile/PipelineTrace.h"
#include "core/store/SessionStore.h"
#include "ui/ConstraintsPanel.h"
#include "ui/ConversationPanel.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/DiffView.h"
#include "ui/KernelEditor.h"
#include "ui/LatencyChart.h"
#include "ui/LessonNotesPanel.h"
#include "ui/PipeUtilizationChart.h"
#include "ui/PipelineTraceView.h"
#include "ui/Plural.h"
#include "ui/TimelineModel.h"

namespace kwb::ui {
namespace {

std::vector<Diagnostic> allDiagnostics(const Iteration& it) {
  std::vector<Diagnostic> out = it.diagnostics;
  if (it.compile) out.insert(out.end(), it.compile->diagnostics.begin(), it.compile->diagnostics.end());
  if (it.run) out.insert(out.end(), it.run->diagnostics.begin(), it.run->diagnostics.end());
  if (it.verify) out.insert(out.end(), it.verify->diagnostics.begin(), it.verify->diagnostics.end());
  return out;
}

std::optional<double> baselineOf(const Session& s) {
  return sessionBaselineUs(s);
}

// Which verification case the stored trace is of: the profile summarises every case, the trace and the
// per-case details are the slowest case's (core/verify/ProfileSummary.cpp).
QString traceCaseText(const Iteration& it) {
  if (!it.profile) return QObject::tr("This iteration has no profile.");
  const auto& extra = it.profile->extra;
  const auto slowest = extra.find("slowest_case");
  if (slowest == extra.end() || !slowest->is_object() || !slowest->contains("name"))
    return QObject::tr("Pipeline trace of the profiled run.");
  const QString name = QString::fromStdString(slowest->value("name", std::string()));
  const auto cases = extra.find("cases");
  const int count = cases != extra.end() && cases->is_array() ? int(cases->size()) : 0;
  const double caseUs = slowest->value("total_us", 0.0);
  QString text = count > 1
                     ? QObject::tr("Pipeline trace of case “%1”, the slowest of the %2 verification cases")
                           .arg(name)
                           .arg(count)
                     : QObject::tr("Pipeline trace of case “%1”").arg(name);
  if (caseUs > 0 && count > 1)
    text += QObject::tr(" (%1 µs of the %2 µs all cases take)")
                .arg(caseUs, 0, 'f', 2)
                .arg(it.profile->totalUs, 0, 'f', 2);
  return text + QLatin1Char('.');
}

// The editor's text before any iteration: what the agent starts from (the task's README), as comments,
// so the expert solution is not given away by default.
QString taskStartingPoint(const QString& taskName, const QString& readme) {
  QString out = QObject::tr(
                    "// %1: no kernel yet. This is what the agent starts from.\n"
                    "// Start a session (Session ▸ New session…) to let it write one; View ▸ Show the "
                    "expert solution shows ours (a spoiler).\n")
                    .arg(taskName);
  if (!readme.isEmpty()) {
    out += QStringLiteral("//\n");
    for (const QString& line : readme.split(QLatin1Char('\n')))
      out += (line.isEmpty() ? QStringLiteral("//") : QStringLiteral("// ") + line) + QLatin1Char('\n');
  }
  return out;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("Kernel Workbench"));
  setStatusBar(new ElidingStatusBar(this));
  artifacts_ = new IterationArtifactLoader(this);
  connect(artifacts_, &IterationArtifactLoader::loaded, this, &MainWindow::applyArtifacts);
  auto* central = new QWidget(this);
  auto* cl = new QVBoxLayout(central);
  cl->setContentsMargins(0, 0, 0, 0);
  cl->setSpacing(0);
  editorHeader_ = new QLabel(central);
  editorHeader_->setContentsMargins(8, 4, 8, 4);
  editor_ = new KernelEditor(central);
  cl->addWidget(editorHeader_);
  cl->addWidget(editor_, 1);
  setCentralWidget(central);

  timeline_ = new TimelineModel(this);
  timeline_->setIcons(styleStatusIcons());
  latency_ = new LatencyChart(this);
  pipes_ = new PipeUtilizationChart(this);
  trace_ = new PipelineTraceView(this);
  diff_ = new DiffView(this);
  diagnostics_ = new DiagnosticsPanel(this);
  conversation_ = new ConversationPanel(this);
  constraints_ = new ConstraintsPanel(this);
  lessonNotes_ = new LessonNotesPanel(this);
  buildActions();
  buildDocks();
  buildViewMenus();

  stateLabel_ = new QLabel(tr("idle"), this);
  // The state is the first permanent label: a margin keeps it apart from the message on its left.
  stateLabel_->setContentsMargins(6, 0, 6, 0);
  iterationLabel_ = new QLabel(this);
  tokensLabel_ = new QLabel(this);
  elapsedLabel_ = new QLabel(this);
  clockTimer_ = new QTimer(this);
  clockTimer_->setInterval(1000);
  connect(clockTimer_, &QTimer::timeout, this, &MainWindow::refreshElapsed);
  backendLabel_ = new QLabel(tr("backend: built-in Ascend C emulator (no NPU)"), this);
  backendLabel_->setObjectName(QStringLiteral("backendLabel"));
  statusBar()->addPermanentWidget(stateLabel_);
  statusBar()->addPermanentWidget(iterationLabel_);
  statusBar()->addPermanentWidget(tokensLabel_);
  statusBar()->addPermanentWidget(elapsedLabel_);
  evalTimingsLabel_ = new QLabel(this);
  evalTimingsLabel_->setObjectName(QStringLiteral("evalTimings"));
  evalTimingsLabel_->setToolTip(
      tr("Where the evaluation of the shown iteration spent its time (kwb eval --timings)"));
  statusBar()->addPermanentWidget(evalTimingsLabel_);
  statusBar()->addPermanentWidget(backendLabel_);

  connect(diagnostics_, &DiagnosticsPanel::jumpRequested, this,
          [this](const QString&, int line, int column) { editor_->jumpToLine(line, column); });
  connect(trace_, &PipelineTraceView::sourceActivated, this, [this](const QString& src) {
    const int colon = src.lastIndexOf(QLatin1Char(':'));
    bool ok = false;
    const int line = src.mid(colon + 1).toInt(&ok);
    if (ok) editor_->jumpToLine(line);
  });
  connect(lessonNotes_, &LessonNotesPanel::previousRequested, this, [this] {
    if (auto k = lessonNotes_->shownStep(); k && *k > 0) showLessonStep(*k - 1);
  });
  connect(lessonNotes_, &LessonNotesPanel::exerciseStartRequested, this, &MainWindow::startExercise);
  connect(lessonNotes_, &LessonNotesPanel::exerciseSolutionRequested, this,
          &MainWindow::showExerciseSolution);
  connect(lessonNotes_, &LessonNotesPanel::exerciseCheckRequested, this, &MainWindow::checkExercise);
  connect(lessonNotes_, &LessonNotesPanel::nextRequested, this, [this] {
    const auto k = lessonNotes_->shownStep();
    showLessonStep(k ? *k + 1 : 0);
  });
  connect(constraints_, &ConstraintsPanel::addRuleRequested, this, &MainWindow::addRuleRequested);
  connect(constraints_, &ConstraintsPanel::fixParameterRequested, this, &MainWindow::fixParameterRequested);
  connect(constraints_, &ConstraintsPanel::removeRequested, this, &MainWindow::unpinRequested);
  connect(constraints_, &ConstraintsPanel::lockSelectionRequested, this, &MainWindow::lockSelection);
  connect(editor_, &QsciScintilla::modificationChanged, this, &MainWindow::refreshActions);
  // Start pressed by the engineer (not by Next step) ends teaching mode's hold on the last step.
  connect(this, &MainWindow::startRequested, this, [this] {
    if (!lessonTarget_) lessonHold_.reset();
  });
  setAgentAvailable(false, tr("No LLM provider configured: open Settings, or open a lesson to replay one"));
  constraints_->setConstraints({});
  resize(1600, 950);
}

MainWindow::~MainWindow() = default;

bool MainWindow::openTask(const QString& dir) {
  const QDir taskDir(dir);
  if (!taskDir.exists()) {
    statusBar()->showMessage(tr("Task folder %1 does not exist").arg(dir));
    return false;
  }
  const bool hasExpert = taskDir.exists(QStringLiteral("expert_candidate.cpp"));
  const bool hasReadme = taskDir.exists(QStringLiteral("README.md"));
  if (!hasExpert && !hasReadme && !taskDir.exists(QStringLiteral("task.json"))) {
    statusBar()->showMessage(tr("Task folder %1 has no task.json, README or candidate source").arg(dir));
    return false;
  }
  QString readme;
  if (hasReadme) {
    // A README of a few kilobytes, bounded by TextFile (docs/architecture.md lists this read).
    try {
      readme = QString::fromStdString(
          readTextFileOrThrow(taskDir.filePath(QStringLiteral("README.md")).toStdString()));
    } catch (const std::exception& e) {
      statusBar()->showMessage(
          tr("Cannot read %1: %2")
              .arg(taskDir.filePath(QStringLiteral("README.md")), QString::fromUtf8(e.what())));
      return false;
    }
  }
  taskDir_ = taskDir.absolutePath();
  selected_.reset();
  editor_->setSource(taskStartingPoint(taskDir.dirName(), readme));
  shownFile_.clear();
  editorHeader_->setText(tr("<b>%1</b> · the task's starting point").arg(taskDir.dirName().toHtmlEscaped()));
  diff_->clear();
  if (QAction* expert = action(QStringLiteral("showExpert"))) expert->setEnabled(hasExpert);
  setWindowTitle(tr("Kernel Workbench — %1").arg(taskDir.dirName()));
  statusBar()->showMessage(tr("Task %1: start a session to let the agent work on it").arg(taskDir.dirName()));
  return true;
}

void MainWindow::showSession(const Session& session, std::optional<std::filesystem::path> sessionDir) {
  session_ = session;
  sessionDir_ = std::move(sessionDir);
  artifacts_->clear();
  lessonTarget_.reset();
  lessonHold_.reset();
  elapsedMs_ = 0;
  clockStartedMs_ = -1;
  clockTimer_->stop();
  refreshElapsed();
  resetAgentView();
  // Nothing of the session shown before may remain: the panels below are only refilled by selecting an
  // iteration, which a session without iterations never does.
  selected_.reset();
  stateLabel_->setText(tr("idle"));
  iterationLabel_->setText(session_.iterations.empty() ? tr("no iterations yet") : QString());
  diff_->clear();
  conversation_->clearConversation(tr("No iteration selected"));
  diagnostics_->setDiagnostics({});
  editor_->setDiagnostics({}, shownFile_);
  trace_->clearTrace();
  pipes_->clearProfile();
  timeline_->setSession(session_);
  shownBaselineUs_ =
      session_.task.baseline ? std::optional<double>(session_.task.baseline->latencyUs) : std::nullopt;
  timelineView_->expandAll();
  refreshConstraintCounts();
  setWindowTitle(tr("Kernel Workbench — %1").arg(QString::fromStdString(session_.task.name)));
  setBackendDescription(session_.settings.backend == "ascend-cann"
                            ? tr("backend: CANN toolkit")
                            : tr("backend: built-in Ascend C emulator (no NPU)"));
  refreshLatency();
  if (!session_.iterations.empty())
    selectIteration(session_.acceptedIteration.value_or(session_.iterations.back().id));
}

void MainWindow::setBackendDescription(const QString& text, const QString& toolTip) {
  backendLabel_->setText(text);
  backendLabel_->setToolTip(toolTip);
}

QString MainWindow::backendDescription() const {
  return backendLabel_->text();
}

void MainWindow::refreshLatency() {
  std::vector<std::optional<double>> lat, floors;
  for (const auto& it : session_.iterations) {
    lat.push_back(it.profile && it.profile->totalUs > 0 ? std::optional<double>(it.profile->totalUs)
                                                        : std::nullopt);
    floors.push_back(it.profile ? it.profile->floorUs : std::nullopt);
  }
  // The agent's baseline (core/agent/SessionSummary.h): the task's measured latency, else the first
  // passing iteration's, so the chart and the Speedup column always have one once a candidate passes.
  const std::optional<double> baseline = sessionBaselineUs(session_);
  QString baselineLabel;
  if (session_.task.baseline && session_.task.baseline->latencyUs > 0)
    baselineLabel = session_.task.baseline->source.empty()
                        ? tr("the task's measurement")
                        : QString::fromStdString(session_.task.baseline->source);
  else if (baseline)
    for (const auto& it : session_.iterations)
      if (it.verdict == Verdict::Pass && it.profile && it.profile->totalUs > 0) {
        baselineLabel = tr("first pass (#%1)").arg(it.id);
        break;
      }
  latency_->setLatencies(lat, baseline, floors, baselineLabel);
  // The latest estimate's expected error (the cost model's, by kind of kernel: docs/calibration.md).
  std::optional<double> errorPct;
  for (const auto& it : session_.iterations)
    if (it.profile) {
      const auto e = it.profile->extra.find("expected_error_pct");
      errorPct = e != it.profile->extra.end() && e->is_number() ? std::optional<double>(e->get<double>())
                                                                : std::nullopt;
    }
  latency_->setExpectedErrorPct(errorPct);
  if (baseline != shownBaselineUs_) {
    shownBaselineUs_ = baseline;
    timeline_->setBaselineUs(baseline);
  }
  std::int64_t tokens = 0;
  for (const auto& it : session_.iterations)
    if (it.usage) tokens += it.usage->promptTokens + it.usage->completionTokens;
  tokensLabel_->setText(countOf(tokens, tr("token"), tr("tokens")));
}

void MainWindow::showIteration(int id) {
  const Iteration* it = session_.findIteration(id);
  if (!it) return;
  selected_ = id;
  const QModelIndex idx = timeline_->indexOfIteration(id);
  if (idx.isValid() && timelineView_->currentIndex().siblingAtColumn(0) != idx) {
    restoringTimeline_ = true;
    timelineView_->setCurrentIndex(idx);
    restoringTimeline_ = false;
  }
  // The file shown is the candidate's primary file, by the rule the evaluator uses (core/model/Candidate.h).
  const auto [fileName, source] = it->candidate.files.empty() ? std::pair<std::string, std::string>()
                                                              : primaryCandidateFile(it->candidate);
  // The engineer's unsaved edit of this iteration stays; everything around it follows the iteration.
  if (!editorHoldsEdit()) {
    editor_->setSource(QString::fromStdString(source));
    shownFile_ = QString::fromStdString(fileName);
  }
  refreshLockedRanges();
  const auto diags = allDiagnostics(*it);
  editor_->setDiagnostics(diags, shownFile_);
  diagnostics_->setDiagnostics(diags);
  editorHeader_->setText(tr("<b>Iteration %1</b> · %2 · origin %3%4")
                             .arg(id)
                             .arg(shownFile_, QString::fromUtf8(originName(it->candidate.origin).data()),
                                  it->verdict
                                      ? tr(" · %1").arg(QString::fromUtf8(verdictName(*it->verdict).data()))
                                      : QString()));
  iterationLabel_->setText(tr("iteration %1 of %2").arg(id).arg(session_.iterations.size()));
  if (it->profile)
    pipes_->setProfile(*it->profile);
  else
    pipes_->clearProfile();
  refreshDiff();
  showIterationArtifacts(*it);
  if (lesson_) {
    const auto step = lessonStepOf(id);
    lessonNotes_->showStep(step ? step : std::optional<int>(static_cast<int>(lesson_->steps.size())), true);
    rightTabs_->setCurrentWidget(diffTab_);
  }
}

std::vector<int> MainWindow::selectedTimelineIterations() const {
  std::vector<int> ids;
  for (const QModelIndex& row : timelineView_->selectionModel()->selectedRows(0))
    if (const Iteration* it = timeline_->iteration(row)) ids.push_back(it->id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

void MainWindow::refreshDiff() {
  if (const auto chosen = selectedTimelineIterations(); chosen.size() == 2) {
    compareIterations(chosen[0], chosen[1]);
    return;
  }
  const Iteration* it = selected_ ? session_.findIteration(*selected_) : nullptr;
  if (!it) {
    diff_->clear();
    return;
  }
  const Iteration* parent = it->parentId ? session_.findIteration(*it->parentId) : nullptr;
  if (parent)
    diff_->setIterations(*parent, *it, baselineOf(session_));
  else
    diff_->setAgainstStart(*it, baselineOf(session_));  // the first iteration: everything is new
}

void MainWindow::compareIterations(int leftId, int rightId) {
  const Iteration* left = session_.findIteration(leftId);
  const Iteration* right = session_.findIteration(rightId);
  if (!left || !right) return;
  diff_->setIterations(*left, *right, baselineOf(session_));
  rightTabs_->setCurrentWidget(diffTab_);
}

void MainWindow::setLesson(std::optional<Lesson> lesson) {
  lesson_ = std::move(lesson);
  lessonNotes_->setVisible(lesson_.has_value());
  if (!lesson_) return;
  lessonNotes_->setLesson(*lesson_);
  rightTabs_->setCurrentWidget(diffTab_);
  widenForLesson();
  if (selected_) selectIteration(*selected_);
}

std::optional<int> MainWindow::lessonStepOf(int iterationId) const {
  std::vector<int> replayed;
  for (const auto& it : session_.iterations)
    if (it.candidate.origin == Origin::Replay) replayed.push_back(it.id);
  std::sort(replayed.begin(), replayed.end());
  const auto at = std::find(replayed.begin(), replayed.end(), iterationId);
  if (at == replayed.end()) return std::nullopt;
  return static_cast<int>(at - replayed.begin());
}

void MainWindow::showLessonStep(int index) {
  if (!lesson_ || index < 0 || index >= static_cast<int>(lesson_->steps.size())) return;
  lessonHold_.reset();
  for (const auto& it : session_.iterations)
    if (it.candidate.origin == Origin::Replay && lessonStepOf(it.id) == index && isFinal(it.state)) {
      selectIteration(it.id);
      return;
    }
  // Not played (or not finished) yet: play the loop until this step's iteration has its verdict, then
  // pause there (updateIteration), so one click is one step.
  lessonNotes_->showStep(index, false);
  rightTabs_->setCurrentWidget(diffTab_);
  if (!agentAvailable_) return;
  lessonTarget_ = index;
  emit startRequested();
}

SessionViewState MainWindow::viewState() const {
  SessionViewState s;
  s.selectedIteration = selected_;
  s.analysisTab = rightTabs_->currentIndex();
  s.feedbackTab = bottomTabs_->currentIndex();
  s.inlineDiff = diff_->isInline();
  s.elapsedMs =
      elapsedMs_ + (clockStartedMs_ >= 0 ? QDateTime::currentMSecsSinceEpoch() - clockStartedMs_ : 0);
  return s;
}

void MainWindow::restoreViewState(const SessionViewState& state) {
  if (state.selectedIteration && session_.findIteration(*state.selectedIteration))
    selectIteration(*state.selectedIteration);
  if (state.analysisTab >= 0 && state.analysisTab < rightTabs_->count())
    rightTabs_->setCurrentIndex(state.analysisTab);
  if (state.feedbackTab >= 0 && state.feedbackTab < bottomTabs_->count())
    bottomTabs_->setCurrentIndex(state.feedbackTab);
  diff_->setInline(state.inlineDiff);
  elapsedMs_ = std::max<qint64>(0, state.elapsedMs);
  refreshElapsed();
}

void MainWindow::showIterationArtifacts(const Iteration& it) {
  traceCaseLabel_->setText(traceCaseText(it));
  if (!sessionDir_) {
    trace_->clearTrace();
    conversation_->clearConversation(it.candidate.origin == Origin::Human
                                         ? tr("Edited by hand: no conversation")
                                         : tr("No transcript stored for this iteration"));
    return;
  }
  // Read on the loader's worker; a cached result arrives at once. Until then the panels keep what they
  // show, so a live iteration's updates do not flicker.
  artifacts_->request(*sessionDir_, it);
}

void MainWindow::applyArtifacts(const IterationArtifacts& a) {
  if (selected_ != a.iterationId) return;  // the engineer moved on meanwhile
  const Iteration* it = session_.findIteration(a.iterationId);
  if (!it) return;
  if (a.trace)
    trace_->setTrace(*a.trace);
  else
    trace_->clearTrace();
  if (!a.traceError.isEmpty())
    statusBar()->showMessage(tr("Cannot read the pipeline trace: %1").arg(a.traceError), 8000);
  // A remote evaluation says where it ran before its timings (the report's ran_on and remote_host).
  evalTimingsLabel_->setText(a.remoteRun.isEmpty() ? a.evalTimings
                             : a.evalTimings.isEmpty()
                                 ? tr("ran on %1").arg(a.remoteRun)
                                 : tr("ran on %1 · %2").arg(a.remoteRun, a.evalTimings));
  if (!a.prompt.isEmpty() || !a.reply.isEmpty() || !a.feedback.isEmpty())
    conversation_->setConversation(
        it->usage ? QString::fromStdString(it->usage->provider + " " + it->usage->model).trimmed()
                  : QString::fromUtf8(originName(it->candidate.origin).data()),
        a.prompt, a.reply, a.feedback);
  else
    conversation_->clearConversation(it->candidate.origin == Origin::Human
                                         ? tr("Edited by hand: no conversation")
                                         : tr("No transcript stored for this iteration"));
}

}  // namespace kwb::ui
