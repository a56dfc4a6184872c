// SPDX-License-Identifier: MIT
#pragma once
// Makes a child's whole process group die with kwb, even when kwb is killed with SIGKILL and runs
// no code of its own: a compiler (g++ and the cc1plus it forks) or a candidate would otherwise run on
// for seconds as an orphan. PR_SET_PDEATHSIG cannot do this: it reaches only the direct child (not
// what that child forks) and fires when the spawning thread ends rather than the process.
//
// The watchdog is a small POSIX shell that only waits on a socket: when kwb closes its end without
// saying the group is done (kwb died), it kills the group. kwb says "done" while the group's leader is
// still an unreaped zombie, so the group id cannot have been reused when the watchdog acts on it.
// It is spawned (posix_spawn: no copy of kwb's page tables), not forked: a fork of a large,
// multi-threaded kwb per child cost a suite of parallel sessions a quarter of its CPU time and held
// every other thread's page faults and mallocs while it ran (docs/benchmarks.md, "Suite throughput").
// See docs/reliability.md, "Leftovers".

#include <sys/types.h>

namespace kwb::detail {

class GroupWatchdog {
 public:
  // Starts the watchdog. When that fails the child simply runs unwatched (active() is false).
  GroupWatchdog();
  ~GroupWatchdog() { release(); }
  GroupWatchdog(const GroupWatchdog&) = delete;
  GroupWatchdog& operator=(const GroupWatchdog&) = delete;

  bool active() const { return pid_ > 0; }
  // The process group to kill should kwb die (the child's pid: it leads its own group).
  void watch(pid_t group);
  // The group is finished (call before reaping its leader): the watchdog exits without killing, and
  // is reaped here. Idempotent.
  void release();

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
};

}  // namespace kwb::detail
