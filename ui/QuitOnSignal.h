// SPDX-License-Identifier: MIT
#pragma once
// SIGINT, SIGTERM and SIGHUP end the workbench the way Session ▸ Quit does: the event loop returns, so
// the agent is stopped, the iteration in flight saved as stopped and the loop's scratch folder removed
// (docs/reliability.md, "Leftovers"). Killed by the default action instead, the scratch of an
// evaluation in flight (tens to hundreds of MB) stayed in $TMPDIR. A second signal ends the process at
// once, as it would without this.

#include <QObject>

class QSocketNotifier;

namespace kwb::ui {

class QuitOnSignal : public QObject {
  Q_OBJECT
 public:
  // Installs the handlers; at most one instance per process (a signal handler can only reach a file
  // descriptor kept in a static). Throws std::runtime_error when the notification pipe cannot be made.
  explicit QuitOnSignal(QObject* parent = nullptr);
  ~QuitOnSignal() override;

 signals:
  void signalled(int signalNumber);

 private:
  QSocketNotifier* notifier_;
};

}  // namespace kwb::ui
