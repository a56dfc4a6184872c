// SPDX-License-Identifier: MIT
// The running half of ProcessRunner: one poll() loop over the child's stdout, stderr, stdin and a
// pidfd, with the timeout, cancellation and output-cap decisions made between wake-ups.

#include "core/process/ProcessRunner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <optional>

#include "core/process/GroupWatchdog.h"
#include "core/process/ProcessSpawn.h"

namespace kwb {

namespace {

using Clock = std::chrono::steady_clock;

// After the leader has exited, output still buffered in the pipes is read; a process that escaped the
// group (setsid) and still holds the pipes is not waited for longer than this.
constexpr std::chrono::milliseconds kDrainAfterExit{500};
// How often the cancel flag is looked at while nothing else happens.
constexpr int kCancelPollMs = 20;
// Without pidfd (kernels before 5.3) the child's exit is noticed by polling at this interval.
constexpr int kExitPollMs = 10;

struct Stream {
  int fd = -1;
  std::string* text = nullptr;
  bool* truncated = nullptr;
  std::size_t cap = 0;
  const std::function<void(const std::string&)>* onLine = nullptr;
  std::string partial;  // current unfinished line (only bytes kept under the cap)

  void consume(const char* data, std::size_t n) {
    std::size_t room = cap > text->size() ? cap - text->size() : 0;
    std::size_t keep = std::min(n, room);
    if (keep < n) *truncated = true;
    if (keep == 0) return;
    text->append(data, keep);
    if (!*onLine) return;
    std::size_t from = 0;
    for (std::size_t i = 0; i < keep; ++i) {
      if (data[i] != '\n') continue;
      partial.append(data + from, i - from);
      (*onLine)(partial);
      partial.clear();
      from = i + 1;
    }
    partial.append(data + from, keep - from);
  }

  void finish() {
    if (fd >= 0) close(fd);
    fd = -1;
    if (*onLine && !partial.empty()) (*onLine)(partial);
    partial.clear();
  }

  // Reads what is available (bounded, so that deadlines are still checked during a flood).
  void readAvailable() {
    char buf[65536];
    for (int round = 0; round < 16 && fd >= 0; ++round) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n > 0) {
        consume(buf, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      finish();  // EOF or a read error: the stream is over either way
    }
  }
};

// write() to a pipe whose reader is gone raises SIGPIPE, which would kill the whole application.
// Block it around the write and swallow the one this write caused.
ssize_t writeWithoutSigpipe(int fd, const char* data, std::size_t n) {
  sigset_t pipeSet, old, pending;
  sigemptyset(&pipeSet);
  sigaddset(&pipeSet, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipeSet, &old);
  sigpending(&pending);
  const bool alreadyPending = sigismember(&pending, SIGPIPE);
  ssize_t w = write(fd, data, n);
  int err = errno;
  if (w < 0 && err == EPIPE && !alreadyPending) {
    struct timespec zero {};
    sigtimedwait(&pipeSet, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = err;
  return w;
}

int pidfdOpen(pid_t pid) {
#ifdef SYS_pidfd_open
  int fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (fd >= 0) fcntl(fd, F_SETFD, FD_CLOEXEC);
  return fd;
#else
  (void)pid;
  return -1;
#endif
}

int msUntil(Clock::time_point t, Clock::time_point now) {
  if (t <= now) return 0;
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(t - now).count();
  return static_cast<int>(std::min<long long>((us + 999) / 1000, 1000LL * 1000));
}

}  // namespace

ProcessResult ProcessRunner::run(const ProcessSpec& spec) const {
  ProcessResult r;
  r.commandLine = formatCommandLine(spec);
  const auto start = Clock::now();

  detail::SpawnedChild child;
  std::string error;
  // Started before the child, so that no instant exists where kwb could die leaving it unwatched
  // (GroupWatchdog.h).
  detail::GroupWatchdog watchdog;
  if (!detail::spawnChild(spec, child, error)) {
    r.startError = error;
    r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return r;
  }
  r.started = true;
  r.pid = child.pid;
  const pid_t pid = child.pid;
  watchdog.watch(pid);
  if (spec.onStarted) spec.onStarted(pid);

  Stream out{child.stdoutFd, &r.stdoutText, &r.stdoutTruncated, spec.outputCap, &spec.onStdoutLine, {}};
  Stream err{child.stderrFd, &r.stderrText, &r.stderrTruncated, spec.outputCap, &spec.onStderrLine, {}};
  int stdinFd = child.stdinFd;
  std::size_t stdinOffset = 0;
  auto closeStdin = [&] {
    if (stdinFd >= 0) close(stdinFd);
    stdinFd = -1;
  };
  if (stdinFd >= 0 && spec.stdinData->empty()) closeStdin();

  int pidfd = pidfdOpen(pid);
  enum class Kill { None, TermSent, KillSent } kill = Kill::None;
  Clock::time_point sigkillDue{};
  std::optional<Clock::time_point> deadline;
  if (spec.timeout.count() > 0) deadline = start + spec.timeout;
  bool exited = false;
  int status = 0;
  std::optional<Clock::time_point> drainUntil;

  auto beginKill = [&](bool immediate) {
    if (kill != Kill::None) return;
    if (immediate) {
      killpg(pid, SIGKILL);
      kill = Kill::KillSent;
      return;
    }
    killpg(pid, SIGTERM);
    kill = Kill::TermSent;
    sigkillDue = Clock::now() + spec.killGrace;
  };

  for (;;) {
    auto now = Clock::now();
    if (!exited) {
      if (kill == Kill::None && spec.cancel && spec.cancel->load()) {
        r.cancelled = true;
        beginKill(false);
      } else if (kill == Kill::None && deadline && now >= *deadline) {
        r.timedOut = true;
        beginKill(false);
      }
      if (kill == Kill::TermSent && now >= sigkillDue) {
        killpg(pid, SIGKILL);
        kill = Kill::KillSent;
      }
    }
    const bool streamsOpen = out.fd >= 0 || err.fd >= 0;
    if (exited && (!streamsOpen || (drainUntil && now >= *drainUntil))) break;

    int waitMs = -1;
    auto waitAtMost = [&](int ms) { waitMs = waitMs < 0 ? ms : std::min(waitMs, ms); };
    if (!exited) {
      if (kill == Kill::None && deadline) waitAtMost(msUntil(*deadline, now));
      if (kill == Kill::TermSent) waitAtMost(msUntil(sigkillDue, now));
      if (kill == Kill::None && spec.cancel) waitAtMost(kCancelPollMs);
      if (pidfd < 0) waitAtMost(kExitPollMs);
    } else if (drainUntil) {
      waitAtMost(msUntil(*drainUntil, now));
    }

    pollfd fds[4];
    int nfds = 0, outIdx = -1, errIdx = -1, inIdx = -1, pidIdx = -1;
    if (out.fd >= 0) outIdx = nfds, fds[nfds++] = {out.fd, POLLIN, 0};
    if (err.fd >= 0) errIdx = nfds, fds[nfds++] = {err.fd, POLLIN, 0};
    if (stdinFd >= 0) inIdx = nfds, fds[nfds++] = {stdinFd, POLLOUT, 0};
    if (!exited && pidfd >= 0) pidIdx = nfds, fds[nfds++] = {pidfd, POLLIN, 0};
    int ready = poll(fds, static_cast<nfds_t>(nfds), waitMs);
    if (ready < 0 && errno != EINTR) {
      // Cannot happen with valid descriptors; do not spin: kill the group and collect what is left.
      beginKill(true);
      ready = 0;
    }

    if (ready > 0) {
      if (outIdx >= 0 && fds[outIdx].revents) out.readAvailable();
      if (errIdx >= 0 && fds[errIdx].revents) err.readAvailable();
      if (inIdx >= 0 && fds[inIdx].revents) {
        if (fds[inIdx].revents & (POLLERR | POLLHUP)) {
          closeStdin();
        } else {
          const std::string& data = *spec.stdinData;
          ssize_t w = writeWithoutSigpipe(stdinFd, data.data() + stdinOffset,
                                          std::min<std::size_t>(data.size() - stdinOffset, 65536));
          if (w > 0) stdinOffset += static_cast<std::size_t>(w);
          if ((w < 0 && errno != EAGAIN && errno != EINTR) || stdinOffset >= data.size()) closeStdin();
        }
      }
    }
    if (spec.killOnOutputCap && !exited && kill == Kill::None && (r.stdoutTruncated || r.stderrTruncated)) {
      r.outputCapKilled = true;
      beginKill(true);
    }

    if (!exited && (pidfd < 0 || (pidIdx >= 0 && fds[pidIdx].revents))) {
      siginfo_t info{};
      if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
          info.si_pid == pid) {
        // The leader is a zombie now and keeps the group id reserved, so this cannot hit anyone else:
        // whatever it left in its group goes with it.
        killpg(pid, SIGKILL);
        watchdog.release();  // before the reap: the group id is still reserved for the watchdog
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        exited = true;
        drainUntil = Clock::now() + kDrainAfterExit;
        closeStdin();
      }
    }
  }

  if (pidfd >= 0) close(pidfd);
  closeStdin();
  out.finish();
  err.finish();
  if (WIFEXITED(status)) {
    r.exited = true;
    r.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signaled = true;
    r.signal = WTERMSIG(status);
  }
  r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  return r;
}

}  // namespace kwb
