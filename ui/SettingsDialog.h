// SPDX-License-Identifier: MIT
#pragma once
// Settings: the LLM provider (provider, base URL, model and the environment variable that holds the API
// key — never the key), the limits new sessions start with, the sandbox (per-case time limit and the
// isolation candidate runs get on this machine), and the backend new sessions evaluate on with the
// remote NPU host over ssh (RemoteHostEditor; docs/workbench.md, "Settings").

#include <QDialog>

#include <map>
#include <vector>

#include "core/llm/LlmEndpointConfig.h"
#include "ui/ProviderSettings.h"
#include "ui/RemoteHostSettings.h"
#include "ui/SessionDefaults.h"

class QComboBox;
class QLineEdit;
class QLabel;
class QSpinBox;
class QTabWidget;

namespace kwb::ui {

class LimitsEditor;
class RemoteHostEditor;

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
  // The remote NPU host (Backend tab); what is stored, edited there.
  void setRemoteHost(const RemoteHostSettings& host);
  RemoteHostSettings remoteHost() const;
  RemoteHostEditor* remoteHostEditor() const { return remoteHost_; }
  // OK keeps the dialog open, on the Backend tab with the problem shown, while the remote host is the
  // default backend but its fields do not pass, or while its address is set but malformed.
  void accept() override;
  QString acceptError() const;

 private:
  void refreshKeyStatus();
  QWidget* buildProviderPage(const LlmEndpointConfig& current, const std::vector<ProviderOverride>& overrides,
                             const QStringList& environmentWarnings);
  QWidget* buildSandboxPage(const SessionDefaults& defaults);
  QWidget* buildBackendPage(const SessionDefaults& defaults);

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
  QComboBox* defaultBackend_;
  RemoteHostEditor* remoteHost_;
  QLabel* acceptError_;
  QWidget* backendPage_;
};

}  // namespace kwb::ui
