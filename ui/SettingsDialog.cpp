#include "ui/SettingsDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

namespace kwb::ui {

SettingsDialog::SettingsDialog(const LlmEndpointConfig& current, QWidget* parent) : QDialog(parent), base_(current) {
  setWindowTitle(tr("LLM provider"));
  auto* form = new QFormLayout(this);
  provider_ = new QComboBox(this);
  provider_->addItem(tr("OpenAI-compatible (vLLM, Ollama, DeepSeek, Qwen, …)"), QStringLiteral("openai"));
  provider_->addItem(tr("Anthropic Messages API"), QStringLiteral("anthropic"));
  provider_->setCurrentIndex(current.provider == "anthropic" ? 1 : 0);
  baseUrl_ = new QLineEdit(QString::fromStdString(current.baseUrl), this);
  baseUrl_->setPlaceholderText(QStringLiteral("http://localhost:8000/v1"));
  model_ = new QLineEdit(QString::fromStdString(current.model), this);
  keyEnv_ = new QLineEdit(QString::fromStdString(current.apiKeyEnv), this);
  keyStatus_ = new QLabel(this);
  keyStatus_->setWordWrap(true);
  form->addRow(tr("Provider"), provider_);
  form->addRow(tr("Base URL"), baseUrl_);
  form->addRow(tr("Model"), model_);
  form->addRow(tr("API key variable"), keyEnv_);
  form->addRow(QString(), keyStatus_);
  auto* note = new QLabel(tr("The key is read from this environment variable when a request is made; it is never "
                             "stored in settings, sessions or logs."),
                          this);
  note->setWordWrap(true);
  form->addRow(note);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(keyEnv_, &QLineEdit::textChanged, this, &SettingsDialog::refreshKeyStatus);
  refreshKeyStatus();
}

void SettingsDialog::refreshKeyStatus() {
  const QString name = keyEnv_->text().trimmed();
  const bool set = !name.isEmpty() && qEnvironmentVariableIsSet(name.toLocal8Bit().constData());
  keyStatus_->setText(name.isEmpty() ? tr("Name the variable, e.g. OPENAI_API_KEY")
                      : set          ? tr("✓ %1 is set in this environment").arg(name)
                                     : tr("✗ %1 is not set: export it before starting kernel-workbench").arg(name));
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

}  // namespace kwb::ui
