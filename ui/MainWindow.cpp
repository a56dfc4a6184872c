// SPDX-License-Identifier: MIT
#include "ui/MainWindow.h"
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

QString readText(const std::filesystem::path& p) {
  return QString::fromStdString(readTextFileOrEmpty(p));
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("Kernel Workbench"));
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

  stateLabel_ = new QLabel(tr("idle"), this);
  iterationLabel_ = new QLabel(this);
  tokensLabel_ = new QLabel(this);
  elapsedLabel_ = new QLabel(this);
  clockTimer_ = new QTimer(this);
  clockTimer_->setInterval(1000);
  connect(clockTimer_, &QTimer::timeout, this, &MainWindow::refreshElapsed);
  backendLabel_ = new QLabel(tr("backend: built-in Ascend C emulator (no NPU)"), this);
  statusBar()->addPermanentWidget(stateLabel_);
  statusBar()->addPermanentWidget(iterationLabel_);
  statusBar()->addPermanentWidget(tokensLabel_);
  statusBar()->addPermanentWidget(elapsedLabel_);
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
  connect(lessonNotes_, &LessonNotesPanel::nextRequested, this, [this] {
    const auto k = lessonNotes_->shownStep();
    showLessonStep(k ? *k + 1 : 0);
  });
  connect(constraints_, &ConstraintsPanel::addRuleRequested, this, &MainWindow::addRuleRequested);
  connect(constraints_, &ConstraintsPanel::fixParameterRequested, this, &MainWindow::fixParameterRequested);
  connect(constraints_, &ConstraintsPanel::removeRequested, this, &MainWindow::unpinRequested);
  connect(constraints_, &ConstraintsPanel::lockSelectionRequested, this, &MainWindow::lockSelection);
  connect(editor_, &QsciScintilla::modificationChanged, this, [this](bool modified) {
    if (auto* a = action(QStringLiteral("runEdit"))) a->setEnabled(modified && agentAvailable_);
  });
  setAgentAvailable(false, tr("No LLM provider configured: open Settings, or open a lesson to replay one"));
  constraints_->setConstraints({});
  resize(1500, 920);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
  timelineView_ = new QTreeView(this);
  timelineView_->setModel(timeline_);
  timelineView_->setUniformRowHeights(true);
  timelineView_->setAlternatingRowColors(true);
  timelineView_->setRootIsDecorated(true);
  timelineView_->header()->setStretchLastSection(false);
  timelineView_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  timelineView_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(timelineView_, &QWidget::customContextMenuRequested, this, &MainWindow::showTimelineMenu);
  connect(timelineView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& cur) {
            if (const Iteration* it = timeline_->iteration(cur)) selectIteration(it->id);
          });
  auto* left = new QDockWidget(tr("Iterations"), this);
  left->setObjectName(QStringLiteral("timelineDock"));
  left->setWidget(timelineView_);
  addDockWidget(Qt::LeftDockWidgetArea, left);

  bottomTabs_ = new QTabWidget(this);
  bottomTabs_->addTab(diagnostics_, tr("Diagnostics"));
  bottomTabs_->addTab(conversation_, tr("Conversation"));
  auto* bottom = new QDockWidget(tr("Feedback"), this);
  bottom->setObjectName(QStringLiteral("feedbackDock"));
  bottom->setWidget(bottomTabs_);
  addDockWidget(Qt::BottomDockWidgetArea, bottom);

  rightTabs_ = new QTabWidget(this);
  auto* profile = new QSplitter(Qt::Vertical, this);
  profile->addWidget(latency_);
  profile->addWidget(pipes_);
  // Both charts need room for their axes: split the tab evenly and never squeeze one below readability.
  latency_->setMinimumHeight(220);
  pipes_->setMinimumHeight(240);
  profile->setStretchFactor(0, 1);
  profile->setStretchFactor(1, 1);
  rightTabs_->addTab(profile, tr("Profile"));
  auto* traceBox = new QWidget(this);
  auto* tl = new QVBoxLayout(traceBox);
  tl->setContentsMargins(0, 0, 0, 0);
  auto* traceBar = new QHBoxLayout;
  auto* hintLabel =
      new QLabel(tr("Ctrl+wheel or +/− zoom · drag to pan · double-click jumps to source"), traceBox);
  auto* exportBtn = new QPushButton(tr("Open in Perfetto…"), traceBox);
  exportBtn->setToolTip(tr(
      "Save the trace as a Chrome trace JSON for ui.perfetto.dev, chrome://tracing or MindStudio Insight"));
  traceBar->addWidget(hintLabel, 1);
  traceBar->addWidget(exportBtn);
  tl->addLayout(traceBar);
  traceScroll_ = new QScrollArea(traceBox);
  traceScroll_->setWidget(trace_);
  traceScroll_->setWidgetResizable(true);
  tl->addWidget(traceScroll_, 1);
  connect(exportBtn, &QPushButton::clicked, this, &MainWindow::exportTrace);
  rightTabs_->addTab(traceBox, tr("Pipeline trace"));
  diffTab_ = new QSplitter(Qt::Horizontal, this);
  diffTab_->addWidget(diff_);
  diffTab_->addWidget(lessonNotes_);
  diffTab_->setStretchFactor(0, 3);
  diffTab_->setStretchFactor(1, 2);
  lessonNotes_->hide();
  rightTabs_->addTab(diffTab_, tr("Diff"));
  rightTabs_->addTab(constraints_, tr("Constraints"));
  auto* right = new QDockWidget(tr("Analysis"), this);
  right->setObjectName(QStringLiteral("analysisDock"));
  right->setWidget(rightTabs_);
  addDockWidget(Qt::RightDockWidgetArea, right);
  resizeDocks({left, right}, {430, 560}, Qt::Horizontal);
  resizeDocks({bottom}, {220}, Qt::Vertical);
}

bool MainWindow::openTask(const QString& dir) {
  const QDir taskDir(dir);
  if (!taskDir.exists()) {
    statusBar()->showMessage(tr("Task folder %1 does not exist").arg(dir));
    return false;
  }
  for (const QString& name :
       {QStringLiteral("expert_candidate.cpp"), QStringLiteral("kernel.cpp"), QStringLiteral("README.md")}) {
    QFile f(taskDir.filePath(name));
    if (!f.exists()) continue;
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
      statusBar()->showMessage(tr("Cannot read %1: %2").arg(f.fileName(), f.errorString()));
      return false;
    }
    editor_->setSource(QTextStream(&f).readAll());
    shownFile_ = f.fileName();
    editorHeader_->setText(tr("<b>%1</b> · expert candidate · %2").arg(taskDir.dirName(), name));
    setWindowTitle(tr("Kernel Workbench — %1").arg(taskDir.dirName()));
    statusBar()->showMessage(
        tr("Task %1: start a session to let the agent work on it").arg(taskDir.dirName()));
    return true;
  }
  statusBar()->showMessage(tr("Task folder %1 has no candidate source or README").arg(dir));
  return false;
}

void MainWindow::showSession(const Session& session, std::optional<std::filesystem::path> sessionDir) {
  session_ = session;
  sessionDir_ = std::move(sessionDir);
  elapsedMs_ = 0;
  clockStartedMs_ = -1;
  clockTimer_->stop();
  refreshElapsed();
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
  timelineView_->expandAll();
  constraints_->setConstraints(session_.constraints, rejectionCounts());
  setWindowTitle(tr("Kernel Workbench — %1").arg(QString::fromStdString(session_.task.name)));
  backendLabel_->setText(session_.settings.backend == "ascend-cann"
                             ? tr("backend: CANN toolkit")
                             : tr("backend: built-in Ascend C emulator (no NPU)"));
  refreshLatency();
  if (!session_.iterations.empty())
    selectIteration(session_.acceptedIteration.value_or(session_.iterations.back().id));
}

void MainWindow::refreshLatency() {
  std::vector<std::optional<double>> lat, floors;
  for (const auto& it : session_.iterations) {
    lat.push_back(it.profile && it.profile->totalUs > 0 ? std::optional<double>(it.profile->totalUs)
                                                        : std::nullopt);
    floors.push_back(it.profile ? it.profile->floorUs : std::nullopt);
  }
  latency_->setLatencies(
      lat, session_.task.baseline ? std::optional<double>(session_.task.baseline->latencyUs) : std::nullopt,
      floors);
  std::int64_t tokens = 0;
  for (const auto& it : session_.iterations)
    if (it.usage) tokens += it.usage->promptTokens + it.usage->completionTokens;
  tokensLabel_->setText(tr("%1 tokens").arg(tokens));
}

void MainWindow::selectIteration(int id) {
  const Iteration* it = session_.findIteration(id);
  if (!it) return;
  selected_ = id;
  const QModelIndex idx = timeline_->indexOfIteration(id);
  if (idx.isValid() && timelineView_->currentIndex().siblingAtColumn(0) != idx)
    timelineView_->setCurrentIndex(idx);
  // The file shown is the candidate's primary file, by the rule the evaluator uses (core/model/Candidate.h).
  const auto [fileName, source] = it->candidate.files.empty() ? std::pair<std::string, std::string>()
                                                              : primaryCandidateFile(it->candidate);
  editor_->setSource(QString::fromStdString(source));
  shownFile_ = QString::fromStdString(fileName);
  std::vector<std::pair<int, int>> locks;
  for (const auto& c : session_.constraints)
    if (c.kind == ConstraintKind::LockedRegion && (c.file.empty() || c.file == fileName)) {
      if (auto at = findLockedRegion(c, source)) locks.emplace_back(*at, *at + (c.endLine - c.startLine));
    }
  editor_->setLockedRanges(locks);
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
  if (it->parentId) {
    if (const Iteration* parent = session_.findIteration(*it->parentId))
      diff_->setIterations(
          *parent, *it,
          session_.task.baseline ? std::optional<double>(session_.task.baseline->latencyUs) : std::nullopt);
  } else {
    diff_->clear();
  }
  showIterationArtifacts(*it);
  if (lesson_) {
    const auto step = lessonStepOf(id);
    lessonNotes_->showStep(step ? step : std::optional<int>(static_cast<int>(lesson_->steps.size())), true);
    rightTabs_->setCurrentWidget(diffTab_);
  }
}

void MainWindow::compareIterations(int leftId, int rightId) {
  const Iteration* left = session_.findIteration(leftId);
  const Iteration* right = session_.findIteration(rightId);
  if (!left || !right) return;
  diff_->setIterations(
      *left, *right,
      session_.task.baseline ? std::optional<double>(session_.task.baseline->latencyUs) : std::nullopt);
  rightTabs_->setCurrentWidget(diffTab_);
}

void MainWindow::setLesson(std::optional<Lesson> lesson) {
  lesson_ = std::move(lesson);
  lessonNotes_->setVisible(lesson_.has_value());
  if (!lesson_) return;
  lessonNotes_->setLesson(*lesson_);
  rightTabs_->setCurrentWidget(diffTab_);
  // The diff and the explanation share the analysis dock: give it room to read both.
  if (auto* dock = findChild<QDockWidget*>(QStringLiteral("analysisDock")))
    resizeDocks({dock}, {std::max(dock->width(), width() * 11 / 20)}, Qt::Horizontal);
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
  for (const auto& it : session_.iterations)
    if (it.candidate.origin == Origin::Replay && lessonStepOf(it.id) == index) {
      selectIteration(it.id);
      return;
    }
  // Not played yet: say so, and let the loop play on (a replay is quick) when it can.
  lessonNotes_->showStep(index, false);
  rightTabs_->setCurrentWidget(diffTab_);
  if (agentAvailable_) emit startRequested();
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
  trace_->clearTrace();
  conversation_->clearConversation(it.candidate.origin == Origin::Human
                                       ? tr("Edited by hand: no conversation")
                                       : tr("No transcript stored for this iteration"));
  if (!sessionDir_) return;
  const auto dir = *sessionDir_ / "iterations" / SessionStore::iterationFolderName(it.id);
  std::error_code ec;
  std::filesystem::path tracePath;
  if (it.profile) {
    for (const auto& [label, rel] : it.profile->artifacts)
      if (label.find("trace") != std::string::npos) tracePath = dir / rel;
  }
  if (tracePath.empty() && std::filesystem::exists(dir / "trace.json", ec)) tracePath = dir / "trace.json";
  if (!tracePath.empty() && std::filesystem::exists(tracePath, ec)) {
    try {
      trace_->setTrace(readChromeTraceFile(tracePath));
    } catch (const std::exception& e) {
      statusBar()->showMessage(tr("Cannot read the pipeline trace: %1").arg(QString::fromUtf8(e.what())));
    }
  }
  auto first = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (std::filesystem::exists(dir / n, ec)) return readText(dir / n);
    return QString();
  };
  const QString prompt = first({"prompt.md", "prompt.txt"});
  const QString reply = first({"reply.md", "reply.txt", "response.md", "response.txt"});
  const QString feedback = first({"feedback.md", "feedback.txt"});
  if (!prompt.isEmpty() || !reply.isEmpty() || !feedback.isEmpty())
    conversation_->setConversation(
        it.usage ? QString::fromStdString(it.usage->provider + " " + it.usage->model).trimmed()
                 : QString::fromUtf8(originName(it.candidate.origin).data()),
        prompt, reply, feedback);
}

void MainWindow::updateIteration(const Iteration& iteration) {
  session_.upsertIteration(iteration);
  timeline_->upsertIteration(iteration);
  refreshLatency();
  if (!selected_ || *selected_ == iteration.id || isFinal(iteration.state)) selectIteration(iteration.id);
}

void MainWindow::appendStreamedText(int iterationId, const QString& delta) {
  if (selected_ != iterationId) {
    selected_ = iterationId;
    editor_->setSource({});
    editorHeader_->setText(tr("<b>Iteration %1</b> · the agent is writing…").arg(iterationId));
  }
  editor_->appendStreamed(delta);
}

void MainWindow::setAgentStatus(const QString& state, const QString& detail) {
  stateLabel_->setText(state);
  static const QStringList working = {QStringLiteral("generating"), QStringLiteral("compiling"),
                                      QStringLiteral("running"),    QStringLiteral("verifying"),
                                      QStringLiteral("profiling"),  QStringLiteral("deciding")};
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  if (working.contains(state)) {
    if (clockStartedMs_ < 0) clockStartedMs_ = now;
    clockTimer_->start();
  } else {
    if (clockStartedMs_ >= 0) elapsedMs_ += now - clockStartedMs_;
    clockStartedMs_ = -1;
    clockTimer_->stop();
  }
  refreshElapsed();
  if (!detail.isEmpty()) statusBar()->showMessage(detail, 8000);
}

QString MainWindow::elapsedText() const {
  qint64 ms = elapsedMs_;
  if (clockStartedMs_ >= 0) ms += QDateTime::currentMSecsSinceEpoch() - clockStartedMs_;
  const qint64 s = ms / 1000;
  return s < 3600 ? tr("%1:%2 elapsed").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'))
                  : tr("%1:%2:%3 elapsed")
                        .arg(s / 3600)
                        .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
                        .arg(s % 60, 2, 10, QLatin1Char('0'));
}

void MainWindow::refreshElapsed() {
  elapsedLabel_->setText(elapsedText());
}

std::map<int, int> MainWindow::rejectionCounts() const {
  // Linked by the diagnostic's constraint id (core/agent/ConstraintEnforcer.h), never by its text; an
  // iteration counts once per constraint it broke.
  std::map<int, int> rejections;
  for (const auto& it : session_.iterations) {
    std::set<int> broken;
    for (const auto& d : it.diagnostics)
      if (d.constraintId) broken.insert(*d.constraintId);
    for (const auto& c : session_.constraints)
      if (broken.count(c.id)) ++rejections[c.id];
  }
  return rejections;
}

void MainWindow::setConstraints(const std::vector<Constraint>& constraints) {
  session_.constraints = constraints;
  constraints_->setConstraints(constraints, rejectionCounts());
  if (selected_) selectIteration(*selected_);
}

void MainWindow::setAccepted(std::optional<int> iterationId) {
  session_.acceptedIteration = iterationId;
  timeline_->setAccepted(iterationId);
}

}  // namespace kwb::ui
