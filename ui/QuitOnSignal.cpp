// SPDX-License-Identifier: MIT
#include "ui/QuitOnSignal.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QSocketNotifier>
#include <csignal>
#include <stdexcept>

namespace kwb::ui {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
// The handler may only do async-signal-safe work: it writes the signal number to this socket and the
// event loop reads it. [0] is written by the handler, [1] read by the notifier.
int gSignalSocket[2] = {-1, -1};

void onTerminationSignal(int sig) {
  const unsigned char byte = static_cast<unsigned char>(sig);
  [[maybe_unused]] const ssize_t n = ::write(gSignalSocket[0], &byte, 1);
  std::signal(sig, SIG_DFL);  // the second one ends the process at once
}

}  // namespace

QuitOnSignal::QuitOnSignal(QObject* parent) : QObject(parent) {
  if (gSignalSocket[0] >= 0) throw std::runtime_error("QuitOnSignal: already installed");
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, gSignalSocket) != 0)
    throw std::runtime_error("QuitOnSignal: cannot create the notification socket");
  notifier_ = new QSocketNotifier(gSignalSocket[1], QSocketNotifier::Read, this);
  connect(notifier_, &QSocketNotifier::activated, this, [this] {
    unsigned char byte = 0;
    while (::read(gSignalSocket[1], &byte, 1) == 1) {
      emit signalled(byte);
      QCoreApplication::quit();
    }
  });
  struct sigaction sa {};
  sa.sa_handler = onTerminationSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : kSignals) ::sigaction(sig, &sa, nullptr);
}

QuitOnSignal::~QuitOnSignal() {
  for (int sig : kSignals) std::signal(sig, SIG_DFL);
  ::close(gSignalSocket[0]);
  ::close(gSignalSocket[1]);
  gSignalSocket[0] = gSignalSocket[1] = -1;
}

}  // namespace kwb::ui
