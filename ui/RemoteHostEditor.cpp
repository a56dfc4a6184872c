// SPDX-License-Identifier: MIT
#include "ui/RemoteHostEditor.h"

#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>

namespace kwb::ui {
namespace {

QLabel* errorLabel(QWidget* parent, const QString& name) {
  auto* l = new QLabel(parent);
  l->setObjectName(name);
  l->setTextFormat(Qt::PlainText);  // a message quotes what was typed, markup included
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  l->setStyleSheet(QStringLiteral("color: #c0392b"));
  l->hide();
  return l;
}

void showProblem(QLabel* label, const QString& problem) {
  label->setText(problem);
  label->setVisible(!problem.isEmpty());
}

}  // namespace

RemoteHostEditor::RemoteHostEditor(QWidget* parent) : QWidget(parent), check_(new RemoteHostCheck(this)) {
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  url_ = new QLineEdit(this);
  url_->setObjectName(QStringLiteral("remoteHostUrl"));
  url_->setPlaceholderText(QStringLiteral("ssh://user@npu-host[:port]"));
  url_->setToolTip(tr("The NPU host, as `kwb suite run --executor ssh://user@host[:port]` takes it"));
  urlError_ = errorLabel(this, QStringLiteral("remoteHostUrlError"));
  form->addRow(tr("Host"), url_);
  form->addRow(QString(), urlError_);

  sshConfig_ = new QLineEdit(this);
  sshConfig_->setObjectName(QStringLiteral("remoteHostSshConfig"));
  sshConfig_->setPlaceholderText(tr("default: %1").arg(effectiveSshConfigText({})));
  auto* browse = new QPushButton(tr("Browse…"), this);
  auto* configRow = new QHBoxLayout;
  configRow->addWidget(sshConfig_, 1);
  configRow->addWidget(browse);
  sshConfigError_ = errorLabel(this, QStringLiteral("remoteHostSshConfigError"));
  form->addRow(tr("ssh config file"), configRow);
  form->addRow(QString(), sshConfigError_);

  remoteDir_ = new QLineEdit(this);
  remoteDir_->setObjectName(QStringLiteral("remoteHostRemoteDir"));
  remoteDir_->setPlaceholderText(tr("default: ~/.cache/kwb-remote on the host"));
  remoteDirError_ = errorLabel(this, QStringLiteral("remoteHostRemoteDirError"));
  form->addRow(tr("Remote work folder"), remoteDir_);
  form->addRow(QString(), remoteDirError_);

  remoteCann_ = new QLineEdit(this);
  remoteCann_->setObjectName(QStringLiteral("remoteHostRemoteCann"));
  remoteCann_->setPlaceholderText(tr("default: found there (ASCEND_TOOLKIT_HOME, /usr/local/Ascend, …)"));
  remoteCannError_ = errorLabel(this, QStringLiteral("remoteHostRemoteCannError"));
  form->addRow(tr("Remote CANN toolkit"), remoteCann_);
  form->addRow(QString(), remoteCannError_);

  auto* keys =
      new QLabel(tr("The system ssh logs in without a prompt (BatchMode): keys come only from your ssh "
                    "agent and ssh config; the workbench never asks for or stores a password or key."),
                 this);
  keys->setWordWrap(true);
  form->addRow(keys);

  checkButton_ = new QPushButton(tr("Check host"), this);
  checkButton_->setObjectName(QStringLiteral("remoteHostCheck"));
  checkButton_->setToolTip(tr("Runs the checks of `kwb doctor --host` on the host (in the background)"));
  auto* checkRow = new QHBoxLayout;
  checkRow->addWidget(checkButton_);
  checkRow->addStretch(1);
  form->addRow(checkRow);
  checkSummary_ = new QLabel(this);
  checkSummary_->setObjectName(QStringLiteral("remoteHostCheckSummary"));
  checkSummary_->setTextFormat(Qt::PlainText);
  checkSummary_->setWordWrap(true);
  checkSummary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  form->addRow(checkSummary_);
  checkDetails_ = new QPlainTextEdit(this);
  checkDetails_->setObjectName(QStringLiteral("remoteHostCheckDetails"));
  checkDetails_->setReadOnly(true);
  checkDetails_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  checkDetails_->setPlaceholderText(tr("What the host offers appears here after Check host."));
  checkDetails_->setMinimumHeight(120);
  form->addRow(checkDetails_);

  for (QLineEdit* e : {url_, sshConfig_, remoteDir_, remoteCann_})
    connect(e, &QLineEdit::textChanged, this, &RemoteHostEditor::revalidate);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, tr("ssh config file"), sshConfig_->text());
    if (!f.isEmpty()) sshConfig_->setText(f);
  });
  connect(checkButton_, &QPushButton::clicked, this, &RemoteHostEditor::checkHost);
  connect(check_, &RemoteHostCheck::finished, this, &RemoteHostEditor::showCheck);
}

void RemoteHostEditor::setSettings(const RemoteHostSettings& host) {
  url_->setText(host.url);
  sshConfig_->setText(host.sshConfig);
  remoteDir_->setText(host.remoteDir);
  remoteCann_->setText(host.remoteCann);
  revalidate();
}

RemoteHostSettings RemoteHostEditor::settings() const {
  RemoteHostSettings h;
  h.url = url_->text().trimmed();
  h.sshConfig = sshConfig_->text().trimmed();
  h.remoteDir = remoteDir_->text().trimmed();
  h.remoteCann = remoteCann_->text().trimmed();
  return h;
}

void RemoteHostEditor::revalidate() {
  const RemoteHostProblems p = problems();
  // No address yet is not an error while typing: the placeholder shows the form it takes.
  showProblem(urlError_, url_->text().trimmed().isEmpty() ? QString() : p.url);
  showProblem(sshConfigError_, p.sshConfig);
  showProblem(remoteDirError_, p.remoteDir);
  showProblem(remoteCannError_, p.remoteCann);
}

bool RemoteHostEditor::checkHost() {
  QString error;
  if (!check_->start(settings(), error)) {
    checkSummary_->setStyleSheet(QStringLiteral("color: #c0392b"));
    checkSummary_->setText(tr("Cannot check: %1").arg(error));
    return false;
  }
  checkButton_->setEnabled(false);
  checkButton_->setText(tr("Checking…"));
  checkSummary_->setStyleSheet(QString());
  checkSummary_->setText(tr("Checking %1 over ssh…").arg(settings().url));
  checkDetails_->clear();
  return true;
}

void RemoteHostEditor::showCheck(const RemoteHostCheckResult& result) {
  checkButton_->setEnabled(true);
  checkButton_->setText(tr("Check host"));
  checkSummary_->setStyleSheet(result.ok ? QStringLiteral("color: #1e8449")
                                         : QStringLiteral("color: #c0392b"));
  checkSummary_->setText(result.ok ? tr("✓ %1: %2").arg(result.host, result.summary)
                                   : tr("✗ %1: %2").arg(result.host, result.summary));
  checkDetails_->setPlainText(result.details);
  emit checkFinished(result.ok);
}

QString RemoteHostEditor::checkSummary() const {
  return checkSummary_->text();
}

QString RemoteHostEditor::checkDetails() const {
  return checkDetails_->toPlainText();
}

}  // namespace kwb::ui
