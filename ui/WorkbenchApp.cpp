// SPDX-License-Identifier: MIT
#include "ui/WorkbenchApp.h"

#include <QDateTime>
#include <QDir>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include "core/agent/AgentLoop.h"
#include "core/agent/CandidateEvaluator.h"
#include "core/llm/LlmClient.h"
#include "core/llm/ReplayClient.h"
#include "core/model/Task.h"
#include "core/store/SessionStore.h"
#include "core/store/StoreError.h"
#include "ui/AgentBridge.h"
#include "ui/MainWindow.h"
#include "ui/NewSessionDialog.h"
#include "ui/ProviderSettings.h"
#include "ui/SessionDefaults.h"
#include "ui/SessionHistory.h"
#include "ui/SettingsDialog.h"

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

WorkbenchApp::WorkbenchApp(QString resourcesDir, QString sessionsRoot, QObject* parent)
    : QObject(parent),
      resourcesDir_(std::move(resourcesDir)),
      sessionsRoot_(sessionsRoot.isEmpty()
                        ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                              QStringLiteral("/sessions")
                        : std::move(sessionsRoot)),
      window_(std::make_unique<MainWindow>()) {
  auto* tools = window_->menuBar()->addMenu(tr("&Tools"));
  tools->addAction(tr("LLM provider settings…"), this, &WorkbenchApp::showSettings);
  tools->addAction(tr("Lessons…"), this, &WorkbenchApp::showLessons);
  connect(window_.get(), &MainWindow::newSessionRequested, this, &WorkbenchApp::showNewSession);
  connect(window_.get(), &MainWindow::openSessionRequested, this,
          [this](const QString& dir) { openSession(dir); });
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
}

void WorkbenchApp::refreshRecent() {
  QSettings settings;
  window_->setRecentSessions(recentSessions(settings));
}

bool WorkbenchApp::startOnTask(const QString& taskDir, const LlmEndpointConfig& provider,
                               const QString& sessionsRoot, const QString& backend) {
  QSettings qs;
  SessionSettings base;
  base.backend = backend.toStdString();
  base.limits = loadSessionDefaults(qs).limits;
  return startSession(taskDir, provider, sessionsRoot, base, std::nullopt);
}

void WorkbenchApp::attachLoop(SessionStore store, std::shared_ptr<LlmClient> llm, const QString& sessionDir) {
  const Session& s = store.session();
  QSettings qs;
  const SessionDefaults defaults = loadSessionDefaults(qs);
  auto evaluator = std::make_shared<BackendEvaluator>(s.settings.backend,
                                                      s.settings.soc.empty() ? s.task.soc : s.settings.soc,
                                                      std::chrono::seconds(defaults.caseTimeoutSeconds));
  AgentLoopOptions options;
  options.exitWhenFinished = false;
  auto loop = std::make_unique<AgentLoop>(std::move(store), std::move(llm), evaluator, options);
  window_->showSession(loop->snapshot(), std::filesystem::path(sessionDir.toStdString()));
  bridge_ = std::make_unique<AgentBridge>(std::move(loop), window_.get());
  sessionDir_ = sessionDir;
  QSettings settings;
  rememberSession(settings, sessionDir);
  refreshRecent();
}

bool WorkbenchApp::startSession(const QString& taskDir, const LlmEndpointConfig& provider,
                                const QString& sessionsRoot, SessionSettings base,
                                const std::optional<Lesson>& lesson) {
  rememberView();
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
    attachLoop(SessionStore::create(dir.toStdString(), std::move(session)), llm, dir);
    if (!lesson) bridge_->setLlmRetryLimit(provider.maxRetries);
    if (lesson) window_->setLesson(*lesson);
    window_->statusBar()->showMessage(
        lesson ? tr("Lesson “%1” on the emulator — press Start (F5) or Next step to play it")
                     .arg(QString::fromStdString(lesson->title))
               : tr("Session %1 on %2 via %3 — press Start (F5)")
                     .arg(dir, QString::fromStdString(task.name), QString::fromStdString(llm->describe())));
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

bool WorkbenchApp::openSession(const QString& dir) {
  Session loaded;
  try {
    loaded = SessionStore::load(dir.toStdString());
  } catch (const std::exception& e) {
    // Nothing of the session shown now is touched: the current session stays open.
    lastError_ = QString::fromUtf8(e.what());
    window_->statusBar()->showMessage(tr("Cannot open session %1: %2").arg(dir, lastError_));
    return false;
  }
  rememberView();
  retireBridge();
  sessionDir_.clear();
  currentTask_ = QString::fromStdString(loaded.taskPath);
  const std::optional<Lesson> lesson = lessonOfSession(loaded);
  QSettings qs;
  const LlmEndpointConfig provider = loadProviderSettings(qs);
  QString readOnlyReason;
  if (!lesson && !provider.configured()) {
    readOnlyReason = tr("no LLM provider is configured (Tools ▸ LLM provider settings) to continue it");
  } else {
    try {
      SessionStore store = SessionStore::open(dir.toStdString());
      std::shared_ptr<LlmClient> llm;
      if (lesson) {
        std::size_t played = 0;
        for (const auto& it : store.session().iterations)
          played += it.candidate.origin == Origin::Replay ? 1 : 0;
        llm = lessonReplay(*lesson, played);
      } else {
        llm = makeLlmClient(provider);
      }
      attachLoop(std::move(store), std::move(llm), dir);
      if (!lesson) bridge_->setLlmRetryLimit(provider.maxRetries);
    } catch (const SessionLockedError& e) {
      readOnlyReason = tr("another workbench or `kwb run` (pid %1) is writing it").arg(e.holderPid());
    } catch (const std::exception& e) {
      readOnlyReason = QString::fromUtf8(e.what());
    }
  }
  if (!readOnlyReason.isEmpty()) {
    if (!window_->openSessionDir(dir)) return false;
    window_->setAgentAvailable(false, tr("Read-only: %1").arg(readOnlyReason));
    sessionDir_ = dir;
    QSettings settings;
    rememberSession(settings, dir);
    refreshRecent();
  }
  window_->setLesson(lesson);
  QSettings settings;
  if (const auto view = loadSessionViewState(settings, dir)) window_->restoreViewState(*view);
  window_->statusBar()->showMessage(readOnlyReason.isEmpty()
                                        ? tr("Reopened %1 (%n iteration(s)) — Start (F5) continues it",
                                             nullptr, int(loaded.iterations.size()))
                                              .arg(dir)
                                        : tr("Opened %1 read-only: %2").arg(dir, readOnlyReason));
  return true;
}

bool WorkbenchApp::showSettings() {
  QSettings settings;
  SettingsDialog dialog(loadProviderSettings(settings), loadSessionDefaults(settings), window_.get());
  if (dialog.exec() != QDialog::Accepted) return false;
  const LlmEndpointConfig config = dialog.config();
  saveProviderSettings(settings, config);
  saveSessionDefaults(settings, dialog.defaults());
  // With no live session yet (the usual first run), start one on the task shown; a live session keeps
  // its provider, and the new settings apply to the next session.
  if (!bridge_ && !currentTask_.isEmpty())
    startOnTask(currentTask_, config, sessionsRoot_);
  else
    window_->statusBar()->showMessage(tr("Settings saved; they apply to the next new session"), 8000);
  return true;
}

void WorkbenchApp::showLessons() {
  const QDir dir(resourcesDir_ + QStringLiteral("/lessons"));
  QStringList names, titles;
  for (const QString& n : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    try {
      const Lesson l = loadLesson(dir.filePath(n).toStdString());
      names << dir.filePath(n);
      titles << QStringLiteral("%1 — %2").arg(n, QString::fromStdString(l.title));
    } catch (const std::exception& e) {
      window_->statusBar()->showMessage(tr("Skipped lesson %1: %2").arg(n, QString::fromUtf8(e.what())),
                                        8000);
    }
  }
  if (names.isEmpty()) {
    QMessageBox::information(window_.get(), tr("Lessons"), tr("No lessons found in %1").arg(dir.path()));
    return;
  }
  bool ok = false;
  const QString pick = QInputDialog::getItem(window_.get(), tr("Lessons"),
                                             tr("Play a recorded repair on the emulator, step by step:"),
                                             titles, 0, false, &ok);
  if (ok) openLesson(names.at(titles.indexOf(pick)));
}

QString describeProvider(const LlmEndpointConfig& c) {
  if (!c.configured())
    return WorkbenchApp::tr(
        "Not configured — sessions cannot generate; lessons still replay on the emulator");
  QString s = QStringLiteral("%1 · %2 at %3")
                  .arg(QString::fromStdString(c.provider), QString::fromStdString(c.model),
                       QString::fromStdString(redactUrl(c.baseUrl)));
  if (!c.apiKeyEnv.empty())
    s += c.apiKeyPresent ? WorkbenchApp::tr(" · key from $%1").arg(QString::fromStdString(c.apiKeyEnv))
                         : WorkbenchApp::tr(" · $%1 is not set").arg(QString::fromStdString(c.apiKeyEnv));
  return s;
}

void WorkbenchApp::showNewSession() {
  QSettings settings;
  NewSessionDialog dialog(resourcesDir_ + QStringLiteral("/tasks"), loadSessionDefaults(settings),
                          describeProvider(loadProviderSettings(settings)), window_.get());
  connect(&dialog, &NewSessionDialog::providerSettingsRequested, this, [this, &dialog] {
    QSettings s;
    SettingsDialog sd(loadProviderSettings(s), loadSessionDefaults(s), &dialog);
    if (sd.exec() != QDialog::Accepted) return;
    saveProviderSettings(s, sd.config());
    saveSessionDefaults(s, sd.defaults());
    dialog.setProviderSummary(describeProvider(sd.config()));
  });
  if (dialog.exec() != QDialog::Accepted) return;
  const NewSessionChoice c = dialog.choice();
  SessionSettings base;
  base.backend = c.backend.toStdString();
  base.soc = c.soc.toStdString();
  base.limits = c.limits;
  QSettings after;
  startSession(c.taskDir, loadProviderSettings(after), sessionsRoot_, base, std::nullopt);
}

}  // namespace kwb::ui
