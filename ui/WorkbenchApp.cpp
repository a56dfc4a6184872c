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
#include "core/model/Task.h"
#include "core/store/SessionStore.h"
#include "ui/AgentBridge.h"
#include "ui/MainWindow.h"
#include "ui/ProviderSettings.h"
#include "ui/SettingsDialog.h"

namespace kwb::ui {

WorkbenchApp::WorkbenchApp(QString resourcesDir, QObject* parent)
    : QObject(parent), resourcesDir_(std::move(resourcesDir)), window_(std::make_unique<MainWindow>()) {
  auto* tools = window_->menuBar()->addMenu(tr("&Tools"));
  tools->addAction(tr("LLM provider settings…"), this, &WorkbenchApp::showSettings);
  tools->addAction(tr("Lessons…"), this, &WorkbenchApp::showLessons);
  connect(window_.get(), &MainWindow::newSessionRequested, this, &WorkbenchApp::showNewSession);
}

WorkbenchApp::~WorkbenchApp() {
  bridge_.reset();  // stops the loop before the window goes
}

bool WorkbenchApp::startOnTask(const QString& taskDir, const LlmEndpointConfig& provider, const QString& sessionsRoot,
                               const QString& backend) {
  currentTask_ = taskDir;
  bridge_.reset();
  if (!window_->openTask(taskDir)) {
    lastError_ = window_->statusBar()->currentMessage();
    return false;
  }
  if (!provider.configured()) {
    window_->setAgentAvailable(false, tr("No LLM provider configured: Tools ▸ LLM provider settings, or Tools ▸ "
                                         "Lessons to replay a recorded session"));
    window_->statusBar()->showMessage(
        tr("No LLM provider configured. Tools ▸ LLM provider settings… connects one; Tools ▸ Lessons… replays a "
           "recorded repair on the emulator."));
    return true;
  }
  try {
    Task task = loadTaskDir(taskDir.toStdString());
    SessionSettings settings;
    settings.backend = backend.toStdString();
    settings.provider = provider.provider;
    settings.model = provider.model;
    settings.baseUrl = redactUrl(provider.baseUrl);
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    sessionDir_ = QDir(sessionsRoot).filePath(QString::fromStdString(task.name) + QLatin1Char('-') + stamp);
    QDir().mkpath(sessionsRoot);
    Session session = makeSession(task, taskDir.toStdString(), settings);
    SessionStore store = SessionStore::create(sessionDir_.toStdString(), std::move(session));
    std::shared_ptr<LlmClient> llm = makeLlmClient(provider);
    auto evaluator = std::make_shared<BackendEvaluator>(settings.backend, task.soc);
    AgentLoopOptions options;
    options.exitWhenFinished = false;
    auto loop = std::make_unique<AgentLoop>(std::move(store), llm, evaluator, options);
    window_->showSession(loop->snapshot(), std::filesystem::path(sessionDir_.toStdString()));
    bridge_ = std::make_unique<AgentBridge>(std::move(loop), window_.get());
    window_->statusBar()->showMessage(tr("Session %1 on %2 via %3 — press Start (F5)")
                                          .arg(sessionDir_, QString::fromStdString(task.name),
                                               QString::fromStdString(llm->describe())));
    return true;
  } catch (const std::exception& e) {
    lastError_ = QString::fromUtf8(e.what());
    window_->setAgentAvailable(false, lastError_);
    window_->statusBar()->showMessage(tr("Cannot start a session: %1").arg(lastError_));
    return false;
  }
}

void WorkbenchApp::showSettings() {
  QSettings settings;
  SettingsDialog dialog(loadProviderSettings(settings), window_.get());
  if (dialog.exec() != QDialog::Accepted) return;
  const LlmEndpointConfig config = dialog.config();
  saveProviderSettings(settings, config);
  if (!currentTask_.isEmpty())
    startOnTask(currentTask_, config,
                QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sessions"));
}

void WorkbenchApp::showLessons() {
  const QDir dir(resourcesDir_ + QStringLiteral("/lessons"));
  const QStringList lessons = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
  if (lessons.isEmpty()) {
    QMessageBox::information(window_.get(), tr("Lessons"), tr("No lessons found in %1").arg(dir.path()));
    return;
  }
  bool ok = false;
  const QString pick = QInputDialog::getItem(window_.get(), tr("Lessons"),
                                             tr("Replay a recorded repair on the emulator:"), lessons, 0, false, &ok);
  if (!ok) return;
  const QString lessonDir = dir.filePath(pick);
  LlmEndpointConfig replay;
  replay.provider = "replay";
  replay.replayFile = QDir(lessonDir).filePath(QStringLiteral("lesson.json")).toStdString();
  QString taskDir = QDir(lessonDir).filePath(QStringLiteral("task"));
  if (!QDir(taskDir).exists()) {
    // A lesson names its built-in task in lesson.json ("task": "<name>").
    QFile f(QDir(lessonDir).filePath(QStringLiteral("lesson.json")));
    if (f.open(QIODevice::ReadOnly)) {
      const auto j = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
      if (j.is_object() && j.contains("task") && j["task"].is_string())
        taskDir = resourcesDir_ + QStringLiteral("/tasks/") + QString::fromStdString(j["task"].get<std::string>());
    }
  }
  startOnTask(taskDir, replay,
              QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sessions"));
}

void WorkbenchApp::showNewSession() {
  const QDir dir(resourcesDir_ + QStringLiteral("/tasks"));
  QStringList tasks;
  for (const QString& t : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
    if (QFile::exists(dir.filePath(t) + QStringLiteral("/task.json"))) tasks << t;
  bool ok = false;
  const QString pick = QInputDialog::getItem(window_.get(), tr("New session"), tr("Built-in task:"), tasks, 0, false, &ok);
  if (!ok) return;
  QSettings settings;
  startOnTask(dir.filePath(pick), loadProviderSettings(settings),
              QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sessions"));
}

}  // namespace kwb::ui
