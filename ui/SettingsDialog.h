#pragma once
// Provider settings: provider, base URL, model and the environment variable that holds the API key.

#include <QDialog>

#include "core/llm/LlmEndpointConfig.h"

class QComboBox;
class QLineEdit;
class QLabel;

namespace kwb::ui {

class SettingsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit SettingsDialog(const LlmEndpointConfig& current, QWidget* parent = nullptr);
  LlmEndpointConfig config() const;

 private:
  void refreshKeyStatus();
  LlmEndpointConfig base_;
  QComboBox* provider_;
  QLineEdit* baseUrl_;
  QLineEdit* model_;
  QLineEdit* keyEnv_;
  QLabel* keyStatus_;
};

}  // namespace kwb::ui
