// SPDX-License-Identifier: MIT
#pragma once
// Settings ▸ Backend ▸ Check host: the host doctor of `kwb doctor --host` (core/doctor/RemoteDoctor.h:
// reachable, authentication, the CANN toolkit, bisheng, msprof, the NPU device, the sandbox) run on a
// worker thread, never on the GUI thread, since ssh may take its whole connect timeout. The report
// arrives as `finished` on the object's thread.

#include <QObject>
#include <QString>

#include "core/doctor/RemoteDoctor.h"
#include "ui/RemoteHostSettings.h"

namespace kwb::ui {

struct RemoteHostCheckResult {
  QString host;     // the ssh:// address checked
  bool ok = false;  // the ssh executor can build there (HostDoctorReport::ok)
  QString summary;  // one line: what was found, or the first failing check and why
  QString details;  // every check, as `kwb doctor --host` prints them
  HostDoctorReport report;
};

// The one line of a report: "CANN 8.0 at /opt/... · no NPU device: ..." when it can build there, else
// the first failing check with its fix.
QString summarizeHostReport(const HostDoctorReport& report);

class RemoteHostCheck : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;
  // Starts a check of `host`; false (and nothing started) while one runs or when the settings do not
  // pass checkRemoteHost, whose summary is then `error`.
  bool start(const RemoteHostSettings& host, QString& error);
  bool running() const { return running_; }

 signals:
  void finished(const kwb::ui::RemoteHostCheckResult& result);

 private:
  void deliver(const RemoteHostCheckResult& result);
  bool running_ = false;
};

}  // namespace kwb::ui
