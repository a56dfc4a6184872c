// SPDX-License-Identifier: MIT
#include "app/kwb/StopSignals.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

namespace kwb::cli {

namespace {

// SIGUSR2 only ends the signal thread (sent by the destructor).
sigset_t handledSignals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGUSR2}) sigaddset(&set, sig);
  return set;
}

}  // namespace

StopSignals::StopSignals(std::function<void(int)> onFirst) : onFirst_(std::move(onFirst)) {
  const sigset_t set = handledSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  thread_ = std::thread([this, set] {
    for (;;) {
      int sig = 0;
      if (sigwait(&set, &sig) != 0) continue;
      if (sig == SIGUSR2) return;
      if (received_.exchange(sig) == 0) {
        onFirst_(sig);
        continue;
      }
      ::_exit(128 + sig);  // asked twice: stop now
    }
  });
}

StopSignals::~StopSignals() {
  pthread_kill(thread_.native_handle(), SIGUSR2);
  thread_.join();
  // A signal that arrived after the signal thread ended takes its default action now.
  const sigset_t set = handledSignals();
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace kwb::cli
