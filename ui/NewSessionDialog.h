// SPDX-License-Identifier: MIT
#pragma once
// New session: the task (a built-in one or any task folder, validated before it can be chosen), the
// backend (the built-in emulator; the CANN toolkit when one is installed; the remote NPU host over ssh
// when Settings ▸ Backend names a usable one), the SoC, the LLM provider in use (with a way to change
// it) and the session's limits.

#include <QDialog>

#include "core/model/Session.h"
#include "ui/RemoteHostSettings.h"
#include "ui/SessionDefaults.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace kwb::ui {

class LimitsEditor;

struct NewSessionChoice {
  QString taskDir;
  QString backend = QStringLiteral("ascend-sim");  // or kRemoteBackendChoice: ascend-cann on the remote host
  QString soc;                                     // empty: the task's
  SessionLimits limits;
};

class NewSessionDialog : public QDialog {
  Q_OBJECT
 public:
  // `tasksDir` holds the built-in tasks; `providerSummary` describes the configured LLM provider (or
  // says that none is).
  NewSessionDialog(const QString& tasksDir, const SessionDefaults& defaults, const QString& providerSummary,
                   QWidget* parent = nullptr);
  NewSessionChoice choice() const;
  // Validates the folder as a task and selects it (adding it to the list). False, with the reason shown
  // in the dialog and returned by errorText(), when it is not a usable task.
  bool selectTaskDir(const QString& dir);
  QString errorText() const;
  void setProviderSummary(const QString& summary);
  // The remote NPU host offered as a backend: usable settings enable it (named by its address), others
  // disable it with the reason as its tooltip. Selected when it is the default backend.
  void setRemoteHost(const RemoteHostSettings& host);
  int taskCount() const;
  // Where "Import an operator project…" writes the task folders it makes (one per import).
  void setImportRoot(const QString& dir) { importRoot_ = dir; }
  // Imports a msopgen operator project as a task (core/agent/OpProjectImport.h) on a worker thread and,
  // when it succeeds, selects the new task folder; a session on it starts from the project's kernel as
  // iteration 1. The result arrives as importFinished; problems name the project's file and line.
  void importOperatorProject(const QString& projectDir, const QString& casesFile,
                             const QString& referenceFile);
  bool importing() const { return importing_; }

 signals:
  void providerSettingsRequested();
  void importFinished(bool ok, const QString& message);

 private:
  void taskChanged();
  void showError(const QString& message);  // empty: hides it
  // Invoked by name, queued, from resizeEvent: a functor works too, but clang-analyzer reports the slot
  // object Qt takes ownership of as a leak.
  Q_INVOKABLE void relayout();
  void resizeEvent(QResizeEvent* event) override;
  void askImport();
  void finishImport(bool ok, const QString& message, const QString& taskDir);
  QString errorText_;
  QString importRoot_;
  QString defaultBackend_;
  bool importing_ = false;
  QPushButton* import_;
  QComboBox* task_;
  QLabel* taskInfo_;
  QLabel* error_;
  QComboBox* backend_;
  QComboBox* soc_;
  QLabel* provider_;
  LimitsEditor* limits_;
  QPushButton* ok_;
};

}  // namespace kwb::ui
