// SPDX-License-Identifier: MIT
#pragma once
// Settings: the LLM provider (provider, base URL, model and the environment variable that holds the API
// key — never the key), the limits new sessions start with, and the sandbox (per-case time limit and
// the isolation candidate runs get on this machine).

#include <QDialog>

#include <map>
#include <vector>

#include "core/llm/LlmEndpointConfig.h"
#include "ui/ProviderSettings.h"
#include "ui/SessionDefaults.h"

class QComboBox;
class QLineEdit;
class QLabel;
class QSpinBox;
class QTabWidget;

namespace kwb::ui {

class LimitsEditor;

class SettingsDialog : public QDialog {
  Q_OBJECT
 public:
  // `current` is what is stored (loadStoredProviderSettings); `overrides` the KWB_LLM_* variables that
  // replace stored fields while they are set, shown next to those fields; `environmentWarnings` the
  // problems with the KWB_LLM_* environment (unusable values, misspelt names).
  SettingsDialog(const LlmEndpointConfig& current, const SessionDefaults& defaults, QWidget* parent = nullptr,
                 const std::vector<ProviderOverride>& overrides = {},
                 const QStringList& environmentWarnings = {});
  LlmEndpointConfig config() const;
  SessionDefaults defaults() const;
  QTabWidget* tabs() const { return tabs_; }
  // The note shown under a field an environment variable overrides (empty when none does), and the
  // environment warnings shown on the provider page (tests).
  QString overrideNote(ProviderField field) const;
  QString environmentWarningText() const;

 private:
  void refreshKeyStatus();
  QWidget* buildProviderPage(const LlmEndpointConfig& current, const std::vector<ProviderOverride>& overrides,
                             const QStringList& environmentWarnings);
  QWidget* buildSandboxPage(const SessionDefaults& defaults);

  LlmEndpointConfig base_;
  QTabWidget* tabs_;
  QComboBox* provider_;
  QLineEdit* baseUrl_;
  QLineEdit* model_;
  QLineEdit* keyEnv_;
  QLabel* keyStatus_;
  QLabel* environmentWarnings_;
  std::map<ProviderField, QLabel*> overrideNotes_;
  LimitsEditor* limits_;
  QSpinBox* caseTimeout_;
};

}  // namespace kwb::ui
