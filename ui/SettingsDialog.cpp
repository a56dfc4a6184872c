// SPDX-License-Identifier: MIT
#include "ui/SettingsDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QVBoxLayout>

#include "core/sandbox/Sandbox.h"
#include "core/toolchain/CannInstallation.h"
#include "ui/LimitsEditor.h"
#include "ui/RemoteHostEditor.h"

namespace kwb::ui {

SettingsDialog::SettingsDialog(const LlmEndpointConfig& current, const SessionDefaults& defaults,
                               QWidget* parent, const std::vector<ProviderOverride>& overrides,
                               const QStringList& environmentWarnings)
    : QDialog(parent), base_(current) {
  setWindowTitle(tr("Settings"));
  auto* layout = new QVBoxLayout(this);
  tabs_ = new QTabWidget(this);
  tabs_->addTab(buildProviderPage(current, overrides, environmentWarnings), tr("LLM provider"));
  auto* limitsPage = new QWidget(this);
  auto* ll = new QVBoxLayout(limitsPage);
  auto* limitsNote = new QLabel(tr("New sessions start with these limits (the new-session dialog can change "
                                   "them per session)."),
                                limitsPage);
  limitsNote->setWordWrap(true);
  limits_ = new LimitsEditor(limitsPage);
  limits_->setLimits(defaults.limits);
  ll->addWidget(limitsNote);
  ll->addWidget(limits_);
  ll->addStretch(1);
  tabs_->addTab(limitsPage, tr("Limits"));
  tabs_->addTab(buildSandboxPage(defaults), tr("Sandbox"));
  backendPage_ = buildBackendPage(defaults);
  tabs_->addTab(backendPage_, tr("Backend"));
  layout->addWidget(tabs_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  refreshKeyStatus();
}

QWidget* SettingsDialog::buildProviderPage(const LlmEndpointConfig& current,
                                           const std::vector<ProviderOverride>& overrides,
                                           const QStringList& environmentWarnings) {
  auto* page = new QWidget(this);
  auto* form = new QFormLayout(page);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  environmentWarnings_ = new QLabel(page);
  environmentWarnings_->setTextFormat(Qt::PlainText);
  environmentWarnings_->setWordWrap(true);
  environmentWarnings_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  environmentWarnings_->setStyleSheet(QStringLiteral("color: #c0392b"));
  environmentWarnings_->setText(environmentWarnings.join(QLatin1Char('\n')));
  environmentWarnings_->setVisible(!environmentWarnings.isEmpty());
  form->addRow(environmentWarnings_);
  provider_ = new QComboBox(page);
  provider_->addItem(tr("OpenAI-compatible (vLLM, Ollama, DeepSeek, Qwen, …)"), QStringLiteral("openai"));
  provider_->addItem(tr("Anthropic Messages API"), QStringLiteral("anthropic"));
  provider_->setCurrentIndex(current.provider == "anthropic" ? 1 : 0);
  baseUrl_ = new QLineEdit(QString::fromStdString(current.baseUrl), page);
  baseUrl_->setPlaceholderText(QStringLiteral("http://localhost:8000/v1"));
  model_ = new QLineEdit(QString::fromStdString(current.model), page);
  keyEnv_ = new QLineEdit(QString::fromStdString(current.apiKeyEnv), page);
  keyStatus_ = new QLabel(page);
  keyStatus_->setWordWrap(true);
  // A field an environment variable replaces says so under it: the value typed here is saved, but the
  // variable's is the one used until it is unset (docs/workbench.md, "Settings").
  auto addField = [&](const QString& label, QWidget* editor, ProviderField field) {
    form->addRow(label, editor);
    for (const auto& o : overrides) {
      if (o.field != field) continue;
      auto* note = new QLabel(
          tr("⚠ Overridden by $%1 = “%2” while it is set; what you enter here is saved and used once it is "
             "unset.")
              .arg(o.variable, o.value),
          page);
      note->setTextFormat(Qt::PlainText);
      note->setWordWrap(true);
      note->setTextInteractionFlags(Qt::TextSelectableByMouse);
      editor->setToolTip(tr("Overridden by the environment variable %1").arg(o.variable));
      form->addRow(QString(), note);
      overrideNotes_[field] = note;
    }
  };
  addField(tr("Provider"), provider_, ProviderField::Provider);
  addField(tr("Base URL"), baseUrl_, ProviderField::BaseUrl);
  addField(tr("Model"), model_, ProviderField::Model);
  addField(tr("API key variable"), keyEnv_, ProviderField::ApiKeyEnv);
  form->addRow(QString(), keyStatus_);
  auto* note =
      new QLabel(tr("The key is read from this environment variable when a request is made; it is never "
                    "stored in settings, sessions or logs."),
                 page);
  note->setWordWrap(true);
  form->addRow(note);
  connect(keyEnv_, &QLineEdit::textChanged, this, &SettingsDialog::refreshKeyStatus);
  return page;
}

QWidget* SettingsDialog::buildSandboxPage(const SessionDefaults& defaults) {
  auto* page = new QWidget(this);
  auto* form = new QFormLayout(page);
  caseTimeout_ = new QSpinBox(page);
  caseTimeout_->setRange(1, 3600);
  caseTimeout_->setSuffix(tr(" s"));
  caseTimeout_->setValue(defaults.caseTimeoutSeconds);
  caseTimeout_->setToolTip(
      tr("A verification case running longer is killed and the candidate gets a timeout verdict"));
  form->addRow(tr("Time limit per case"), caseTimeout_);
  auto* isolation = new QLabel(QString::fromStdString(Sandbox::isolationDescription()), page);
  isolation->setWordWrap(true);
  isolation->setTextInteractionFlags(Qt::TextSelectableByMouse);
  form->addRow(tr("Isolation here"), isolation);
  auto* note =
      new QLabel(tr("Generated kernels only ever run in the sandbox: no network, a read-only system, a "
                    "private scratch folder, memory/process/file limits. See docs/sandbox.md."),
                 page);
  note->setWordWrap(true);
  form->addRow(note);
  return page;
}

QWidget* SettingsDialog::buildBackendPage(const SessionDefaults& defaults) {
  auto* page = new QWidget(this);
  auto* layout = new QVBoxLayout(page);
  auto* form = new QFormLayout;
  defaultBackend_ = new QComboBox(page);
  defaultBackend_->setObjectName(QStringLiteral("defaultBackend"));
  defaultBackend_->addItem(tr("Built-in Ascend C emulator (CPU, no NPU needed)"),
                           QStringLiteral("ascend-sim"));
  const auto cann = detectCann();
  defaultBackend_->addItem(
      cann && cann->bisheng
          ? tr("CANN toolkit on this machine (%1)").arg(QString::fromStdString(cann->root.string()))
          : tr("CANN toolkit on this machine (not found)"),
      QStringLiteral("ascend-cann"));
  if (!(cann && cann->bisheng))
    if (auto* model = qobject_cast<QStandardItemModel*>(defaultBackend_->model()))
      model->item(1)->setEnabled(false);
  defaultBackend_->addItem(tr("Remote NPU host (SSH)"), QString::fromLatin1(kRemoteBackendChoice));
  const int at = defaultBackend_->findData(defaults.backend);
  defaultBackend_->setCurrentIndex(at >= 0 ? at : 0);
  defaultBackend_->setToolTip(
      tr("New sessions start with this backend; the new-session dialog can change it"));
  form->addRow(tr("New sessions evaluate on"), defaultBackend_);
  layout->addLayout(form);
  auto* box = new QGroupBox(tr("Remote NPU host (SSH)"), page);
  auto* boxLayout = new QVBoxLayout(box);
  auto* note = new QLabel(tr("Every build and run of a session on this backend happens on the host over ssh, "
                             "as `kwb suite run --executor ssh://…` does; the agent and the LLM stay here "
                             "(docs/suites.md, \"SSH\")."),
                          box);
  note->setWordWrap(true);
  boxLayout->addWidget(note);
  remoteHost_ = new RemoteHostEditor(box);
  boxLayout->addWidget(remoteHost_);
  layout->addWidget(box);
  acceptError_ = new QLabel(page);
  acceptError_->setObjectName(QStringLiteral("settingsAcceptError"));
  acceptError_->setTextFormat(Qt::PlainText);
  acceptError_->setWordWrap(true);
  acceptError_->setStyleSheet(QStringLiteral("color: #c0392b"));
  acceptError_->hide();
  layout->addWidget(acceptError_);
  layout->addStretch(1);
  return page;
}

void SettingsDialog::setRemoteHost(const RemoteHostSettings& host) {
  remoteHost_->setSettings(host);
}

RemoteHostSettings SettingsDialog::remoteHost() const {
  return remoteHost_->settings();
}

void SettingsDialog::accept() {
  const RemoteHostProblems problems = remoteHost_->problems();
  const bool remoteDefault = defaultBackend_->currentData().toString() == QLatin1String(kRemoteBackendChoice);
  const bool addressTyped = !remoteHost_->settings().url.isEmpty();
  if (problems.any() && (remoteDefault || addressTyped)) {
    acceptError_->setText(tr("The remote NPU host is not usable yet — %1").arg(problems.summary()));
    acceptError_->show();
    tabs_->setCurrentWidget(backendPage_);
    return;
  }
  acceptError_->hide();
  QDialog::accept();
}

QString SettingsDialog::acceptError() const {
  return acceptError_->isHidden() ? QString() : acceptError_->text();
}

void SettingsDialog::refreshKeyStatus() {
  const QString name = keyEnv_->text().trimmed();
  const bool set = !name.isEmpty() && qEnvironmentVariableIsSet(name.toLocal8Bit().constData());
  keyStatus_->setText(name.isEmpty() ? tr("Name the variable, e.g. OPENAI_API_KEY")
                      : set          ? tr("✓ %1 is set in this environment").arg(name)
                            : tr("✗ %1 is not set: export it before starting kernel-workbench").arg(name));
}

QString SettingsDialog::overrideNote(ProviderField field) const {
  const auto it = overrideNotes_.find(field);
  return it == overrideNotes_.end() ? QString() : it->second->text();
}

QString SettingsDialog::environmentWarningText() const {
  return environmentWarnings_->text();
}

LlmEndpointConfig SettingsDialog::config() const {
  LlmEndpointConfig c = base_;
  c.provider = provider_->currentData().toString().toStdString();
  c.baseUrl = baseUrl_->text().trimmed().toStdString();
  c.model = model_->text().trimmed().toStdString();
  c.apiKeyEnv = keyEnv_->text().trimmed().toStdString();
  c.apiKeyPresent = !c.apiKeyEnv.empty() && qEnvironmentVariableIsSet(c.apiKeyEnv.c_str());
  return c;
}

SessionDefaults SettingsDialog::defaults() const {
  SessionDefaults d;
  d.limits = limits_->limits();
  d.caseTimeoutSeconds = caseTimeout_->value();
  d.backend = defaultBackend_->currentData().toString();
  return d;
}

}  // namespace kwb::ui
