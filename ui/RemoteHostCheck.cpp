// SPDX-License-Identifier: MIT
#include "ui/RemoteHostCheck.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>

namespace kwb::ui {

QString summarizeHostReport(const HostDoctorReport& report) {
  auto detailOf = [&](const char* name) -> QString {
    for (const auto& c : report.checks)
      if (c.name == name) return QString::fromStdString(c.detail);
    return {};
  };
  if (report.ok()) {
    return QCoreApplication::translate("kwb::ui::RemoteHostCheck", "%1 · %2")
        .arg(detailOf("cann toolkit"), detailOf("npu device"));
  }
  for (const auto& c : report.checks)
    if (c.status == "fail")
      return QStringLiteral("%1: %2%3")
          .arg(QString::fromStdString(c.name), QString::fromStdString(c.detail),
               c.fix.empty() ? QString() : QStringLiteral(" — ") + QString::fromStdString(c.fix));
  return QCoreApplication::translate("kwb::ui::RemoteHostCheck", "the host cannot be used");
}

bool RemoteHostCheck::start(const RemoteHostSettings& host, QString& error) {
  if (running_) {
    error = tr("a check is already running");
    return false;
  }
  if (const RemoteHostProblems problems = checkRemoteHost(host); problems.any()) {
    error = problems.summary();
    return false;
  }
  running_ = true;
  const remote::SshOptions options = toSshOptions(host);
  QPointer<RemoteHostCheck> self(this);
  // ssh runs here, off the GUI thread: an unreachable host takes the whole connect timeout. The setup
  // (and its shared connection) ends on this thread too.
  QThread* worker = QThread::create([self, options] {
    RemoteHostCheckResult r;
    r.host = QString::fromStdString(options.url);
    std::string error;
    if (auto setup = remote::SshExecutorSetup::make(options, error)) {
      r.report = runHostDoctor(setup->settings().ssh, setup->remoteCann());
      r.ok = r.report.ok();
      r.summary = summarizeHostReport(r.report);
      r.details = QString::fromStdString(formatText(r.report));
    } else {
      r.summary = QString::fromStdString(error);
      r.details = r.summary;
    }
    QMetaObject::invokeMethod(qApp, [self, r] {
      if (self) self->deliver(r);
    });
  });
  connect(worker, &QThread::finished, worker, &QObject::deleteLater);
  worker->start();
  return true;
}

void RemoteHostCheck::deliver(const RemoteHostCheckResult& result) {
  running_ = false;
  emit finished(result);
}

}  // namespace kwb::ui
