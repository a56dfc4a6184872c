// SPDX-License-Identifier: MIT
#include "core/process/GroupWatchdog.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace kwb::detail {

namespace {

// The watchdog's whole program. Terminal signals must not end it before it has done its one job (it
// also leads its own process group, so Ctrl-C at kwb's terminal does not reach it). The first line on
// fd 3 is the group to watch; a second line means the group is done. End of file before that second
// line means kwb is gone: kill the group. Nothing kwb sends is trusted beyond being a number above 1. `kill
// -9 -G`, not `kill -s KILL -- -G`: dash, Debian's /bin/sh, takes neither `--` nor a negative pid after `-s`.
constexpr const char* kWatchdogScript =
    "trap '' INT TERM HUP QUIT PIPE TSTP TTIN TTOU\n"
    "IFS= read -r group <&3 || exit 0\n"
    "IFS= read -r done <&3 && exit 0\n"
    "case $group in ''|*[!0-9]*) exit 0 ;; esac\n"
    "[ \"$group\" -gt 1 ] && kill -9 \"-$group\"\n"
    "exit 0\n";

bool sendAll(int fd, const std::string& text) {
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

GroupWatchdog::GroupWatchdog() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // Hold nothing of kwb's open: not its pipes to other children, not the terminal, not its stdout (a
  // reader waiting for kwb's EOF must not wait for the watchdog). dup2 clears close-on-exec on fd 3.
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 3);
  posix_spawn_file_actions_addclosefrom_np(&actions, 4);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  char sh[] = "sh";
  char dashC[] = "-c";
  std::string script = kWatchdogScript;
  char* argv[] = {sh, dashC, script.data(), nullptr};
  char* envp[] = {nullptr};
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, envp);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return;
  }
  pid_ = pid;
  fd_ = fds[0];
}

void GroupWatchdog::watch(pid_t group) {
  if (fd_ < 0) return;
  if (!sendAll(fd_, std::to_string(group) + "\n")) release();
}

void GroupWatchdog::release() {
  if (fd_ >= 0) {
    [[maybe_unused]] const bool said = sendAll(fd_, "done\n");
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
