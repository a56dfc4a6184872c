// SPDX-License-Identifier: MIT
#include "ui/WorkbenchApp.h"
#include "ui/Plural.h"

#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

#include "core/agent/AgentLoop.h"
#include "core/agent/CandidateEvaluator.h"
#include "core/agent/ImportedTask.h"
#include "core/agent/WorkRootJanitor.h"
#include "core/llm/LlmClient.h"
#include "core/llm/ReplayClient.h"
#include "core/model/Task.h"
#include "core/store/SessionStore.h"
#include "core/store/StoreError.h"
#include "ui/AgentBridge.h"
#include "ui/LessonProgress.h"
#include "ui/MainWindow.h"
#include "ui/ProviderSettings.h"
#include "ui/RemoteHostSettings.h"
#include "ui/SessionDefaults.h"
#include "ui/SessionHistory.h"
#include "ui/SuiteView.h"
#include "ui/UiLogging.h"

namespace kwb::ui {
namespace {

const char* const kLessonModelPrefix = "lesson:";

// The lesson's recorded replies from step `skip` on (a reopened lesson continues where it stopped).
std::shared_ptr<LlmClient> lessonReplay(const Lesson& lesson, std::size_t skip) {
  std::vector<ReplayEntry> entries;
  for (std::size_t k = skip; k < lesson.steps.size(); ++k) {
    ReplayEntry e;
    e.text = lesson.steps[k].reply;
    e.model = kLessonModelPrefix + lesson.name;
    entries.push_back(std::move(e));
  }
  ReplayOptions ro;
  ro.source = (lesson.dir / "lesson.json").string();
  ro.chunkDelay = std::chrono::milliseconds(2);  // visible streaming, still a few seconds per lesson
  return std::make_shared<ReplayClient>(std::move(entries), ro);
}

std::optional<Lesson> lessonOfSession(const Session& s) {
  if (s.settings.model.rfind(kLessonModelPrefix, 0) != 0) return std::nullopt;
  try {
    return loadLesson(s.settings.model.substr(std::char_traits<char>::length(kLessonModelPrefix)));
  } catch (const std::exception&) {
    return std::nullopt;  // the lesson is gone: the session still opens, without teaching notes
  }
}

}  // namespace

// A session folder as read off the GUI thread: a writable store when the lock was free, else a
// read-only one; the lesson it replays, when it is a lesson's.
struct OpenedSession {
  std::optional<SessionStore> store;
  QString lockedBy;  // why the store is read-only, when it is (held elsewhere, damaged)
  QString error;     // why nothing could be read
  std::optional<Lesson> lesson;
};

namespace {

// One read of the folder (SessionStore::open loads it); no Qt widget is touched here.
OpenedSession readSessionFolder(const QString& dir) {
  OpenedSession out;
  try {
    try {
      out.store.emplace(SessionStore::open(dir.toStdString(), {OpenMode::ReadWrite}));
    } catch (const SessionLockedError& e) {
      out.lockedBy =
          WorkbenchApp::tr("another workbench or `kwb run` (pid %1) is writing it").arg(e.holderPid());
      out.store.emplace(SessionStore::open(dir.toStdString(), {OpenMode::ReadOnly}));
    } catch (const StoreError& e) {
      // Damage that keeps it from being written (docs/reliability.md): what can be read is shown.
      out.lockedBy = QString::fromUtf8(e.what());
      out.store.emplace(SessionStore::open(dir.toStdString(), {OpenMode::ReadOnly}));
    }
    out.lesson = lessonOfSession(out.store->session());
  } catch (const std::exception& e) {
    out.store.reset();
    out.error = QString::fromUtf8(e.what());
  }
  return out;
}

}  // namespace

WorkbenchApp::WorkbenchApp(QString resourcesDir, QString sessionsRoot, QObject* parent)
    : QObject(parent),
      resourcesDir_(std::move(resourcesDir)),
      sessionsRoot_(sessionsRoot.isEmpty()
                        ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                              QStringLiteral("/sessions")
                        : std::move(sessionsRoot)),
      window_(std::make_unique<MainWindow>()) {
  auto* tools = window_->menuBar()->addMenu(tr("&Tools"));
  tools->addAction(tr("LLM provider settings…"), this, [this] { showSettings(); });
  tools->addAction(tr("Backend and remote NPU host…"), this, [this] { showSettings(true); })
      ->setObjectName(QStringLiteral("backendSettings"));
  tools->addAction(tr("Lessons…"), this, &WorkbenchApp::showLessons);
  connect(window_.get(), &MainWindow::newSessionRequested, this, &WorkbenchApp::showNewSession);
  connect(window_.get(), &MainWindow::openSessionRequested, this,
          [this](const QString& dir) { openSession(dir); });
  connect(window_.get(), &MainWindow::openSuiteRequested, this, &WorkbenchApp::openSuite);
  window_->installEventFilter(this);
  // A misspelt or unusable KWB_LLM_* variable is otherwise ignored without a word: the status bar keeps
  // a notice (the problems in its tooltip; the settings dialog lists them too).
  if (const QStringList warnings = providerEnvironmentWarnings(); !warnings.isEmpty()) {
    for (const QString& w : warnings) qCWarning(lcUiSettings) << w;
    auto* notice = new QLabel(
        tr("⚠ %1: Tools ▸ LLM provider settings")
            .arg(countOf(qint64(warnings.size()), tr("KWB_LLM_* problem"), tr("KWB_LLM_* problems"))),
        window_.get());
    notice->setObjectName(QStringLiteral("environmentWarnings"));
    notice->setToolTip(warnings.join(QLatin1Char('\n')));
    notice->setStyleSheet(QStringLiteral("color: #c0392b"));
    window_->statusBar()->addPermanentWidget(notice);
  }
  // The scratch of workbenches killed earlier goes at once, not only when the next agent loop starts
  // (a launch without a provider starts none); off the GUI thread, as it may be hundreds of MB.
  retiring_.emplace_back([] { removeAbandonedAgentScratch(); });
  QSettings settings;
  window_->restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
  window_->restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  refreshRecent();
}

WorkbenchApp::~WorkbenchApp() {
  rememberView();
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), window_->saveGeometry());
  settings.setValue(QStringLiteral("window/state"), window_->saveState());
  retireBridge();  // stops the loop before the window goes
  for (auto& t : retiring_) t.join();
}

void WorkbenchApp::retireBridge() {
  if (!bridge_) return;
  std::unique_ptr<AgentLoop> loop = bridge_->releaseLoop();
  bridge_.reset();
  if (loop) retiring_.emplace_back([l = std::move(loop)]() mutable { l.reset(); });
}

void WorkbenchApp::rememberView() {
  if (sessionDir_.isEmpty()) return;
  QSettings settings;
  saveSessionViewState(settings, sessionDir_, window_->viewState());
  saveSessionSummary(settings, sessionDir_,
                     summarizeSession(window_->session(), QDateTime::currentDateTimeUtc()));
}

void WorkbenchApp::refreshRecent() {
  QSettings settings;
  window_->setRecentSessions(recentSessionEntries(settings));
}

bool WorkbenchApp::eventFilter(QObject* watched, QEvent* event) {
  if (watched == window_.get() && event->type() == QEvent::Close && !confirmClose()) {
    event->ignore();
    return true;
  }
  return QObject::eventFilter(watched, event);
}

bool WorkbenchApp::confirmClose() {
  if (!bridge_) return true;
  const AgentState state = bridge_->loop().state();
  const bool working = state == AgentState::Generating || state == AgentState::Compiling ||
                       state == AgentState::Running || state == AgentState::Verifying ||
                       state == AgentState::Profiling || state == AgentState::Deciding;
  if (!working) return true;
  const auto answer = QMessageBox::question(
      window_.get(), tr("Quit while the agent works?"),
      tr("The agent is %1. Quitting stops it: the iteration in flight is saved as stopped, and reopening the "
         "session continues from there.")
          .arg(QString::fromUtf8(agentStateName(state).data())),
      QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
  if (answer != QMessageBox::Yes) return false;
  rememberView();
  retireBridge();  // stops the loop now; the destructor joins it
  return true;
}

bool WorkbenchApp::startOnTask(const QString& taskDir, const LlmEndpointConfig& provider,
                               const QString& sessionsRoot, const QString& backend) {
  QSettings qs;
  SessionSettings base;
  const bool remote = backend == QLatin1String(kRemoteBackendChoice);
  base.backend = remote ? "ascend-cann" : backend.toStdString();
  base.limits = loadSessionDefaults(qs).limits;
  return startSession(taskDir, provider, sessionsRoot, base, std::nullopt,
                      remote ? std::optional<QString>(loadRemoteHostSettings(qs).url) : std::nullopt);
}

void WorkbenchApp::attachLoop(SessionStore store, std::shared_ptr<LlmClient> llm, const QString& sessionDir,
                              std::optional<int> resumeFrom, const QString& remoteHost) {
  const Session& s = store.session();
  QSettings qs;
  const SessionDefaults defaults = loadSessionDefaults(qs);
  std::shared_ptr<remote::SshExecutorSetup> hostSetup;
  auto evaluator = makeSessionEvaluator(s, defaults.caseTimeoutSeconds, remoteHost, hostSetup);
  const std::string soc = s.settings.soc.empty() ? s.task.soc : s.settings.soc;
  AgentLoopOptions options;
  options.exitWhenFinished = false;
  options.resumeFrom = resumeFrom;
  auto loop = std::make_unique<AgentLoop>(std::move(store), std::move(llm), evaluator, options);
  window_->showSession(loop->snapshot(), std::filesystem::path(sessionDir.toStdString()));
  bridge_ = std::make_unique<AgentBridge>(std::move(loop), window_.get());
  sessionDir_ = sessionDir;
  QSettings settings;
  saveSessionRemoteHost(settings, sessionDir, remoteHost);
  showSessionBackend(window_->session(), remoteHost);
  if (hostSetup) probeSessionHost(std::move(hostSetup), sessionDir, soc);
  rememberSession(settings, sessionDir);
  saveSessionSummary(settings, sessionDir,
                     summarizeSession(window_->session(), QDateTime::currentDateTimeUtc()));
  refreshRecent();
}

bool WorkbenchApp::startSession(const QString& taskDir, const LlmEndpointConfig& provider,
                                const QString& sessionsRoot, SessionSettings base,
                                const std::optional<Lesson>& lesson,
                                const std::optional<QString>& remoteHost) {
  rememberView();
  ++openTicket_;  // a session still being read is not shown over this one
  currentTask_ = taskDir;
  retireBridge();
  sessionDir_.clear();
  window_->setLesson(std::nullopt);
  if (!window_->openTask(taskDir)) {
    lastError_ = window_->statusBar()->currentMessage();
    return false;
  }
  if (!lesson && !provider.configured()) {
    window_->setAgentAvailable(false,
                               tr("No LLM provider configured: Tools ▸ LLM provider settings, or Tools ▸ "
                                  "Lessons to replay a recorded session"));
    window_->statusBar()->showMessage(tr(
        "No LLM provider configured. Tools ▸ LLM provider settings… connects one; Tools ▸ Lessons… replays a "
        "recorded repair on the emulator."));
    return true;
  }
  try {
    if (remoteHost) {
      // Before any folder is made: a session on a host that cannot be addressed would start nowhere.
      QSettings rs;
      const RemoteHostProblems problems = checkRemoteHost(remoteHostForSession(rs, *remoteHost));
      if (problems.any())
        throw std::runtime_error(
            tr("the remote NPU host is not usable (Tools ▸ Backend and remote NPU host…): %1")
                .arg(problems.summary())
                .toStdString());
    }
    Task task = loadTaskDir(taskDir.toStdString());
    SessionSettings settings = std::move(base);
    std::shared_ptr<LlmClient> llm;
    if (lesson) {
      settings.provider = "replay";
      settings.model = kLessonModelPrefix + lesson->name;
      settings.limits.maxIterations = static_cast<int>(lesson->steps.size());
      settings.limits.patience = static_cast<int>(lesson->steps.size());
      llm = lessonReplay(*lesson, 0);
    } else {
      settings.provider = provider.provider;
      settings.model = provider.model;
      settings.baseUrl = redactUrl(provider.baseUrl);
      llm = makeLlmClient(provider);
    }
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    const QString dir =
        QDir(sessionsRoot).filePath(QString::fromStdString(task.name) + QLatin1Char('-') + stamp);
    QDir().mkpath(sessionsRoot);
    Session session = makeSession(task, taskDir.toStdString(), settings);
    // A task made by importing an operator project starts from the project's own kernel: iteration 1,
    // origin imported (docs/task-format.md). Read before the session exists, so a bad folder creates none.
    std::optional<Candidate> imported = lesson ? std::nullopt : loadImportedCandidate(taskDir.toStdString());
    attachLoop(SessionStore::create(dir.toStdString(), std::move(session)), llm, dir, std::nullopt,
               remoteHost.value_or(QString()));
    if (!lesson) bridge_->setLlmRetryLimit(provider.maxRetries);
    if (imported) bridge_->loop().submitEdit(std::move(*imported), std::nullopt);
    if (lesson) window_->setLesson(*lesson);
    window_->statusBar()->showMessage(
        lesson ? tr("Lesson “%1” on the emulator — press Start (F5) or Next step to play it")
                     .arg(QString::fromStdString(lesson->title))
               : tr("Session %1 on %2 via %3%4 — press Start (F5)")
                     .arg(dir, QString::fromStdString(task.name), QString::fromStdString(llm->describe()),
                          remoteHost ? tr(", built and run on %1").arg(*remoteHost) : QString()));
    return true;
  } catch (const std::exception& e) {
    lastError_ = QString::fromUtf8(e.what());
    window_->setAgentAvailable(false, lastError_);
    window_->statusBar()->showMessage(tr("Cannot start a session: %1").arg(lastError_));
    return false;
  }
}

bool WorkbenchApp::openLesson(const QString& nameOrDir) {
  try {
    const Lesson lesson = loadLesson(nameOrDir.toStdString());
    return startSession(QString::fromStdString(lessonTaskDir(lesson).string()), {}, sessionsRoot_,
                        SessionSettings{}, lesson);
  } catch (const std::exception& e) {
    lastError_ = QString::fromUtf8(e.what());
    window_->statusBar()->showMessage(tr("Cannot open the lesson: %1").arg(lastError_));
    return false;
  }
}

void WorkbenchApp::openSession(const QString& dir, std::function<void(bool)> done) {
  const int ticket = ++openTicket_;
  window_->statusBar()->showMessage(tr("Opening %1…").arg(dir));
  auto result = std::make_shared<OpenedSession>();
  // The folder is read once, on a helper thread (a long session is thousands of files); what was read
  // is shown back on the GUI thread. A later open supersedes this one (ticket).
  retiring_.emplace_back([this, dir, result, ticket, done = std::move(done)]() mutable {
    *result = readSessionFolder(dir);
    QMetaObject::invokeMethod(
        this,
        [this, dir, result, ticket, done = std::move(done)] {
          if (ticket != openTicket_) return;  // superseded: dropping the store releases its lock
          const bool ok = showOpenedSession(dir, std::move(*result));
          if (done) done(ok);
          emit sessionOpenFinished(dir, ok);
        },
        Qt::QueuedConnection);
  });
}

bool WorkbenchApp::showOpenedSession(const QString& dir, OpenedSession opened) {
  if (!opened.error.isEmpty()) {
    // Nothing of the session shown now is touched: the current session stays open.
    lastError_ = opened.error;
    qCWarning(lcUiSession) << "cannot open session" << dir << ":" << lastError_;
    window_->statusBar()->showMessage(tr("Cannot open session %1: %2").arg(dir, lastError_));
    return false;
  }
  rememberView();
  retireBridge();
  sessionDir_.clear();
  SessionStore store = std::move(*opened.store);
  const Session loaded = store.session();
  const std::vector<StoreProblem> problems = store.problems();
  for (const auto& p : problems) qCWarning(lcUiSession) << "session" << dir << ":" << p.describe().c_str();
  currentTask_ = QString::fromStdString(loaded.taskPath);
  const std::optional<Lesson>& lesson = opened.lesson;
  QSettings qs;
  const LlmEndpointConfig provider = loadProviderSettings(qs);
  const std::optional<SessionViewState> view = loadSessionViewState(qs, dir);
  // A session made for the remote NPU host continues there (its address is kept per session folder).
  const QString remoteHost =
      loaded.settings.backend == "ascend-cann" ? loadSessionRemoteHost(qs, dir) : QString();
  QString readOnlyReason = opened.lockedBy;
  if (readOnlyReason.isEmpty() && !lesson && !provider.configured())
    readOnlyReason = tr("no LLM provider is configured (Tools ▸ LLM provider settings) to continue it");
  if (readOnlyReason.isEmpty()) {
    try {
      std::shared_ptr<LlmClient> llm;
      if (lesson) {
        std::size_t played = 0;
        for (const auto& it : loaded.iterations) played += it.candidate.origin == Origin::Replay ? 1 : 0;
        llm = lessonReplay(*lesson, played);
      } else {
        llm = makeLlmClient(provider);
      }
      // The next round builds on the iteration the session was left on (else the accepted one).
      attachLoop(std::move(store), std::move(llm), dir, view ? view->selectedIteration : std::nullopt,
                 remoteHost);
      if (!lesson) bridge_->setLlmRetryLimit(provider.maxRetries);
    } catch (const SessionLockedError& e) {
      readOnlyReason = tr("another workbench or `kwb run` (pid %1) is writing it").arg(e.holderPid());
    } catch (const std::exception& e) {
      readOnlyReason = QString::fromUtf8(e.what());
    }
  }
  if (!readOnlyReason.isEmpty()) {
    window_->showSession(loaded, std::filesystem::path(dir.toStdString()));
    showSessionBackend(loaded, remoteHost);
    window_->setAgentAvailable(false, tr("Read-only: %1").arg(readOnlyReason));
    sessionDir_ = dir;
    QSettings settings;
    rememberSession(settings, dir);
    saveSessionSummary(settings, dir, summarizeSession(loaded, QDateTime::currentDateTimeUtc()));
    refreshRecent();
  }
  window_->setLesson(lesson);
  if (view) window_->restoreViewState(*view);
  QString message =
      readOnlyReason.isEmpty()
          ? tr("Reopened %1 (%2) — Start (F5) continues it")
                .arg(dir, countOf(qint64(loaded.iterations.size()), tr("iteration"), tr("iterations")))
          : tr("Opened %1 read-only: %2").arg(dir, readOnlyReason);
  if (!problems.empty())
    message += tr(" · %1: %2")
                   .arg(countOf(qint64(problems.size()), tr("problem"), tr("problems")),
                        QString::fromStdString(problems.front().describe()));
  window_->statusBar()->showMessage(message);
  return true;
}

SuiteView* WorkbenchApp::openSuite(const QString& dir) {
  auto* view = new SuiteView(dir, window_.get());
  view->setAttribute(Qt::WA_DeleteOnClose);
  connect(view, &SuiteView::openSessionRequested, this, [this](const QString& sessionDir) {
    openSession(sessionDir);
    window_->raise();
    window_->activateWindow();
  });
  view->show();
  // Over the main window, which a launch shows after this (app/workbench/main.cpp).
  QTimer::singleShot(0, view, [view] {
    view->raise();
    view->activateWindow();
  });
  return view;
}

void WorkbenchApp::launch(const LaunchRequest& request, const std::function<void(bool)>& done) {
  if (!request.suiteDir.isEmpty()) openSuite(request.suiteDir);
  auto fallBack = [this, request, done](const QString& tried) {
    const QString why = lastError_;
    QSettings settings;
    startOnTask(request.taskDir, loadProviderSettings(settings), sessionsRoot_,
                loadSessionDefaults(settings).backend);
    if (!tried.isEmpty()) window_->statusBar()->showMessage(tr("Could not open %1: %2").arg(tried, why));
    if (done) done(tried.isEmpty());
  };
  if (!request.sessionDir.isEmpty()) {
    openSession(request.sessionDir, [request, done, fallBack](bool ok) {
      if (!ok)
        fallBack(request.sessionDir);
      else if (done)
        done(true);
    });
    return;
  }
  if (!request.lesson.isEmpty()) {
    if (openLesson(request.lesson)) {
      if (done) done(true);
    } else {
      fallBack(request.lesson);
    }
    return;
  }
  QSettings settings;
  const QStringList recent = request.reopenLast ? recentSessions(settings) : QStringList();
  if (recent.isEmpty()) {
    fallBack({});
    return;
  }
  // The last session that no longer opens (moved, damaged) is not an error the engineer asked for:
  // the task opens, and the status bar says why the session did not.
  openSession(recent.front(), [this, recent, done, fallBack](bool ok) {
    if (ok) {
      if (done) done(true);
      return;
    }
    const QString why = lastError_;
    fallBack({});
    window_->statusBar()->showMessage(tr("The last session %1 did not open: %2").arg(recent.front(), why));
  });
}

// What the lessons chooser lists, read off the GUI thread (every lesson's lesson.json).
struct LessonCatalog {
  QStringList dirs;      // lesson folders in course order (docs/lessons.md), then any other folder
  QStringList names;     // their folder names, the progress keys
  QStringList titles;    // "title" or "title (exercise)"
  QStringList problems;  // lessons or a course file that could not be read
};

namespace {
LessonCatalog readLessonCatalog(const QString& lessonsDir) {
  LessonCatalog c;
  const QDir dir(lessonsDir);
  QStringList order;
  try {
    for (const auto& n : loadCourse(dir.path().toStdString()).ready()) order << QString::fromStdString(n);
  } catch (const std::exception& e) {
    c.problems << QObject::tr("Lesson course: %1").arg(QString::fromUtf8(e.what()));
  }
  for (const QString& n : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
    if (!order.contains(n)) order << n;
  for (const QString& n : order) {
    try {
      const Lesson l = loadLesson(dir.filePath(n).toStdString());
      c.dirs << dir.filePath(n);
      c.names << n;
      c.titles << QString::fromStdString(l.title) + (l.exercise ? QObject::tr(" (exercise)") : QString());
    } catch (const std::exception& e) {
      c.problems << QObject::tr("Skipped lesson %1: %2").arg(n, QString::fromUtf8(e.what()));
    }
  }
  return c;
}
}  // namespace

void WorkbenchApp::showLessons() {
  const QString lessonsDir = resourcesDir_ + QStringLiteral("/lessons");
  window_->statusBar()->showMessage(tr("Reading the lessons…"));
  auto catalog = std::make_shared<LessonCatalog>();
  retiring_.emplace_back([this, lessonsDir, catalog] {
    *catalog = readLessonCatalog(lessonsDir);
    QMetaObject::invokeMethod(
        this, [this, lessonsDir, catalog] { chooseLesson(lessonsDir, *catalog); }, Qt::QueuedConnection);
  });
}

void WorkbenchApp::chooseLesson(const QString& lessonsDir, const LessonCatalog& catalog) {
  window_->statusBar()->clearMessage();
  if (!catalog.problems.isEmpty())
    window_->statusBar()->showMessage(catalog.problems.join(QStringLiteral("; ")), 8000);
  if (catalog.dirs.isEmpty()) {
    QMessageBox::information(window_.get(), tr("Lessons"), tr("No lessons found in %1").arg(lessonsDir));
    return;
  }
  // Progress from the user's settings: ✓ for a lesson played to its last step.
  const LessonProgress progress;
  QStringList titles;
  for (qsizetype k = 0; k < catalog.dirs.size(); ++k)
    titles << QStringLiteral("%1. %2%3 — %4")
                  .arg(k + 1)
                  .arg(progress.badge(catalog.names.at(k)), catalog.names.at(k), catalog.titles.at(k));
  bool ok = false;
  const QString pick = QInputDialog::getItem(window_.get(), tr("Lessons"),
                                             tr("Play a recorded repair on the emulator, step by step:"),
                                             titles, 0, false, &ok);
  if (ok) openLesson(catalog.dirs.at(titles.indexOf(pick)));
}

QString describeProvider(const LlmEndpointConfig& c, const std::vector<ProviderOverride>& overrides) {
  QStringList variables;
  for (const auto& o : overrides) variables << o.variable;
  const QString fromEnvironment = variables.isEmpty()
                                      ? QString()
                                      : WorkbenchApp::tr(" · %1 from the environment (overrides Settings)")
                                            .arg(variables.join(QStringLiteral(", ")));
  if (!c.configured())
    return WorkbenchApp::tr(
               "Not configured — sessions cannot generate; lessons still replay on the emulator") +
           fromEnvironment;
  QString s = QStringLiteral("%1 · %2 at %3")
                  .arg(QString::fromStdString(c.provider), QString::fromStdString(c.model),
                       QString::fromStdString(redactUrl(c.baseUrl)));
  if (!c.apiKeyEnv.empty())
    s += c.apiKeyPresent ? WorkbenchApp::tr(" · key from $%1").arg(QString::fromStdString(c.apiKeyEnv))
                         : WorkbenchApp::tr(" · $%1 is not set").arg(QString::fromStdString(c.apiKeyEnv));
  return s + fromEnvironment;
}

}  // namespace kwb::ui
