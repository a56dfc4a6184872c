// SPDX-License-Identifier: MIT
// WorkbenchApp's settings: the settings and new-session dialogs, and the backend a session evaluates on
// (the built-in emulator, the CANN toolkit here, or a remote NPU host over ssh as the CLI's ssh executor:
// docs/workbench.md, "Settings"; docs/suites.md, "SSH").
#include <QDir>
#include <QLabel>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <stdexcept>

#include "core/agent/CandidateEvaluator.h"
#include "core/agent/FactoryBackendEvaluator.h"
#include "core/remote/SshExecutorSetup.h"
#include "ui/MainWindow.h"
#include "ui/NewSessionDialog.h"
#include "ui/ProviderSettings.h"
#include "ui/RemoteHostSettings.h"
#include "ui/SessionDefaults.h"
#include "ui/SettingsDialog.h"
#include "ui/UiLogging.h"
#include "ui/WorkbenchApp.h"

namespace kwb::ui {

std::shared_ptr<CandidateEvaluator> WorkbenchApp::makeSessionEvaluator(
    const Session& s, int caseTimeoutSeconds, const QString& remoteHost,
    std::shared_ptr<remote::SshExecutorSetup>& setup) {
  const std::string soc = s.settings.soc.empty() ? s.task.soc : s.settings.soc;
  const std::chrono::milliseconds caseTimeout = std::chrono::seconds(caseTimeoutSeconds);
  if (remoteHost.isEmpty()) return std::make_shared<BackendEvaluator>(s.settings.backend, soc, caseTimeout);
  QSettings qs;
  std::string error;
  // The CLI's own setup (kwb suite run --executor ssh://): the same checks, the same shared connection
  // and the same remote backend for every evaluation.
  setup = remote::SshExecutorSetup::make(toSshOptions(remoteHostForSession(qs, remoteHost)), error);
  if (!setup)
    throw std::runtime_error(tr("the remote NPU host %1 is not usable: %2")
                                 .arg(remoteHost, QString::fromStdString(error))
                                 .toStdString());
  return std::make_shared<FactoryBackendEvaluator>(
      "ascend-cann", soc, remote::SshExecutorSetup::probingBackendFactory(setup), caseTimeout);
}

void WorkbenchApp::showSessionBackend(const Session& session, const QString& remoteHost) {
  if (remoteHost.isEmpty()) return;  // showSession's label names the emulator or the toolkit here
  window_->setBackendDescription(tr("backend: CANN on %1 (checking the host…)").arg(remoteHost),
                                 tr("Every build and run of this session happens on %1 over ssh (%2)")
                                     .arg(remoteHost, QString::fromStdString(session.settings.backend)));
}

void WorkbenchApp::probeSessionHost(std::shared_ptr<remote::SshExecutorSetup> setup,
                                    const QString& sessionDir, const std::string& soc) {
  const QString host = QString::fromStdString(setup->settings().ssh.target.url());
  // ssh runs on a helper thread (joined in the destructor); the label changes only while this session
  // is the one shown. The evaluations wait for this same probe and reuse its answer.
  retiring_.emplace_back([this, setup = std::move(setup), sessionDir, soc, host]() mutable {
    std::string error;
    const bool ok = setup->probe(error);
    QString text;
    QString tip;
    if (ok) {
      const remote::RemoteHostFacts& f = setup->facts();
      const std::string mode = remote::remoteRunMode(f, soc);
      const QString where = mode == "npu"   ? tr("NPU")
                            : mode == "sim" ? tr("CANN simulator, no NPU device")
                                            : tr("CPU mode, no NPU device");
      text = f.cann ? tr("backend: CANN %1 on %2 (%3)")
                          .arg(QString::fromStdString(f.cannVersion.value_or("?")), host, where)
                    : tr("backend: %1 — no CANN toolkit there").arg(host);
      tip = f.cann
                ? tr("Builds and runs on %1 with the toolkit at %2")
                      .arg(host, QString::fromStdString(f.cann->root))
                : tr("Set ASCEND_TOOLKIT_HOME there or the remote CANN toolkit in Tools ▸ Backend and remote "
                     "NPU host…");
    } else {
      text = tr("backend: %1 — not answering").arg(host);
      tip = QString::fromStdString(error);
    }
    setup.reset();  // the last owner may be this thread: ssh's shared connection closes here, not on the GUI
    QMetaObject::invokeMethod(
        this,
        [this, sessionDir, ok, text, tip] {
          if (sessionDir_ != sessionDir) return;
          window_->setBackendDescription(text, tip);
          if (!ok)
            window_->statusBar()->showMessage(tr("The remote NPU host does not answer: %1").arg(tip), 15000);
        },
        Qt::QueuedConnection);
  });
}

bool WorkbenchApp::showSettings(bool backendPage) {
  QSettings settings;
  // The dialog edits what is stored; the KWB_LLM_* variables that replace stored fields are shown there.
  SettingsDialog dialog(loadStoredProviderSettings(settings), loadSessionDefaults(settings), window_.get(),
                        providerOverrides(), providerEnvironmentWarnings());
  dialog.setRemoteHost(loadRemoteHostSettings(settings));
  if (backendPage) dialog.tabs()->setCurrentIndex(dialog.tabs()->count() - 1);
  if (dialog.exec() != QDialog::Accepted) return false;
  saveProviderSettings(settings, dialog.config());
  saveSessionDefaults(settings, dialog.defaults());
  saveRemoteHostSettings(settings, dialog.remoteHost());
  const LlmEndpointConfig config = loadProviderSettings(settings);
  // With no live session yet (the usual first run), start one on the task shown; a live session keeps
  // its provider and backend, and the new settings apply to the next session.
  if (!bridge_ && !currentTask_.isEmpty())
    startOnTask(currentTask_, config, sessionsRoot_, dialog.defaults().backend);
  else
    window_->statusBar()->showMessage(tr("Settings saved; they apply to the next new session"), 8000);
  return true;
}

void WorkbenchApp::showNewSession() {
  QSettings settings;
  NewSessionDialog dialog(resourcesDir_ + QStringLiteral("/tasks"), loadSessionDefaults(settings),
                          describeProvider(loadProviderSettings(settings), providerOverrides()),
                          window_.get());
  // Imported operator projects become task folders beside the sessions made from them.
  if (!sessionsRoot_.isEmpty())
    dialog.setImportRoot(QDir(sessionsRoot_).filePath(QStringLiteral("imported-tasks")));
  dialog.setRemoteHost(loadRemoteHostSettings(settings));
  connect(&dialog, &NewSessionDialog::providerSettingsRequested, this, [&dialog] {
    QSettings s;
    SettingsDialog sd(loadStoredProviderSettings(s), loadSessionDefaults(s), &dialog, providerOverrides(),
                      providerEnvironmentWarnings());
    sd.setRemoteHost(loadRemoteHostSettings(s));
    if (sd.exec() != QDialog::Accepted) return;
    saveProviderSettings(s, sd.config());
    saveSessionDefaults(s, sd.defaults());
    saveRemoteHostSettings(s, sd.remoteHost());
    dialog.setProviderSummary(describeProvider(loadProviderSettings(s), providerOverrides()));
    dialog.setRemoteHost(sd.remoteHost());
  });
  if (dialog.exec() != QDialog::Accepted) return;
  const NewSessionChoice c = dialog.choice();
  const bool remote = c.backend == QLatin1String(kRemoteBackendChoice);
  SessionSettings base;
  base.backend = remote ? "ascend-cann" : c.backend.toStdString();
  base.soc = c.soc.toStdString();
  base.limits = c.limits;
  QSettings after;
  startSession(c.taskDir, loadProviderSettings(after), sessionsRoot_, base, std::nullopt,
               remote ? std::optional<QString>(loadRemoteHostSettings(after).url) : std::nullopt);
}

}  // namespace kwb::ui
