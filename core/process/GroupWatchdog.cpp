// SPDX-License-Identifier: MIT
#include "core/process/GroupWatchdog.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <initializer_list>

namespace kwb::detail {

namespace {

// Runs in the forked watchdog of a multi-threaded process: async-signal-safe calls only.
[[noreturn]] void watchdogMain(int fd) {
  // Terminal signals (Ctrl-C reaches kwb's whole foreground group, this process too) must not end
  // the watchdog before it has done its one job.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU})
    ::sigaction(sig, &ignore, nullptr);
  // Hold nothing of kwb's open: not its pipes to other children, not the terminal, not its stdout
  // (a reader waiting for kwb's EOF must not wait for the watchdog).
  if (fd > 0) ::close_range(0, static_cast<unsigned>(fd) - 1, 0);
  ::close_range(static_cast<unsigned>(fd) + 1, ~0U, 0);
  pid_t group = 0;
  std::size_t got = 0;
  while (got < sizeof group) {
    const ssize_t n = ::read(fd, reinterpret_cast<char*>(&group) + got, sizeof group - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(0);  // no group was ever started
    got += static_cast<std::size_t>(n);
  }
  char done = 0;
  ssize_t n;
  while ((n = ::read(fd, &done, 1)) < 0 && errno == EINTR) {
  }
  if (n != 1 && group > 1) ::kill(-group, SIGKILL);  // kwb is gone without saying the group is done
  ::_exit(0);
}

}  // namespace

GroupWatchdog::GroupWatchdog() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    watchdogMain(fds[1]);
  }
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return;
  }
  pid_ = pid;
  fd_ = fds[0];
}

void GroupWatchdog::watch(pid_t group) {
  if (fd_ < 0) return;
  if (::send(fd_, &group, sizeof group, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof group)) release();
}

void GroupWatchdog::release() {
  if (fd_ >= 0) {
    const char done = 1;
    [[maybe_unused]] const ssize_t n = ::send(fd_, &done, 1, MSG_NOSIGNAL);
    ::close(fd_);
    fd_ = -1;
  }
  if (pid_ > 0) {
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
}

}  // namespace kwb::detail
