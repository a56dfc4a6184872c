// SPDX-License-Identifier: MIT
#pragma once
// kwb run ends on SIGINT, SIGTERM or SIGHUP like on any other stop: the agent loop is asked to stop,
// the interrupted iteration is saved as stopped, scratch folders are removed by their owners'
// destructors, and kwb exits 128 + the signal number. A second signal ends kwb at once (the next run
// removes what that leaves, see docs/reliability.md, "Leftovers").
//
// The signals are blocked in every thread started after construction and taken by one thread with
// sigwait, so no code runs in signal-handler context.

#include <atomic>
#include <functional>
#include <thread>

namespace kwb::cli {

class StopSignals {
 public:
  // `onFirst` runs on the signal thread for the first signal.
  explicit StopSignals(std::function<void(int)> onFirst);
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  int received() const { return received_.load(); }  // 0 when none

 private:
  std::function<void(int)> onFirst_;
  std::atomic<int> received_{0};
  std::thread thread_;
};

}  // namespace kwb::cli
