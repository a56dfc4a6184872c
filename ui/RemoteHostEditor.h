// SPDX-License-Identifier: MIT
#pragma once
// The remote NPU host fields of Settings ▸ Backend (docs/workbench.md, "Settings"): the ssh:// address,
// the ssh config file, the remote work folder and the remote CANN toolkit, each with its problem shown
// under it as it is typed (the CLI's checks), and "Check host", which runs `kwb doctor --host`'s checks
// on a worker thread (RemoteHostCheck) and shows what the host offers. No password field: keys come only
// from the user's ssh agent and ssh config.

#include <QWidget>

#include "ui/RemoteHostCheck.h"
#include "ui/RemoteHostSettings.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace kwb::ui {

class RemoteHostEditor : public QWidget {
  Q_OBJECT
 public:
  explicit RemoteHostEditor(QWidget* parent = nullptr);
  void setSettings(const RemoteHostSettings& host);
  RemoteHostSettings settings() const;
  RemoteHostProblems problems() const { return checkRemoteHost(settings()); }
  // What the Check host button does: false, with the reason shown, when the fields do not pass or a
  // check runs already. The outcome arrives as checkFinished.
  bool checkHost();
  bool checking() const { return check_->running(); }
  // The shown outcome of the last check: its one line, and every check's line.
  QString checkSummary() const;
  QString checkDetails() const;

 signals:
  void checkFinished(bool ok);

 private:
  void revalidate();
  void showCheck(const RemoteHostCheckResult& result);
  QLineEdit* url_;
  QLineEdit* sshConfig_;
  QLineEdit* remoteDir_;
  QLineEdit* remoteCann_;
  QLabel* urlError_;
  QLabel* sshConfigError_;
  QLabel* remoteDirError_;
  QLabel* remoteCannError_;
  QPushButton* checkButton_;
  QLabel* checkSummary_;
  QPlainTextEdit* checkDetails_;
  RemoteHostCheck* check_;
};

}  // namespace kwb::ui
