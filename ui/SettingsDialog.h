// SPDX-License-Identifier: MIT
#pragma once
// Settings: the LLM provider (provider, base URL, model and the environment variable that holds the API
// key — never the key), the limits new sessions start with, and the sandbox (per-case time limit and
// the isolation candidate runs get on this machine).

#include <QDialog>

#include "core/llm/LlmEndpointConfig.h"
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
  SettingsDialog(const LlmEndpointConfig& current, const SessionDefaults& defaults,
                 QWidget* parent = nullptr);
  LlmEndpointConfig config() const;
  SessionDefaults defaults() const;
  QTabWidget* tabs() const { return tabs_; }

 private:
  void refreshKeyStatus();
  QWidget* buildProviderPage(const LlmEndpointConfig& current);
  QWidget* buildSandboxPage(const SessionDefaults& defaults);

  LlmEndpointConfig base_;
  QTabWidget* tabs_;
  QComboBox* provider_;
  QLineEdit* baseUrl_;
  QLineEdit* model_;
  QLineEdit* keyEnv_;
  QLabel* keyStatus_;
  LimitsEditor* limits_;
  QSpinBox* caseTimeout_;
};

}  // namespace kwb::ui
