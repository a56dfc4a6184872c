// SPDX-License-Identifier: MIT
// The launch's worker processes (BlockPool.h). Parent and worker talk over one AF_UNIX SOCK_SEQPACKET
// pair per worker: the parent sends the next unit to run, the worker answers when the unit is done (or
// when it goes to sleep in a cross-block wait). A worker that dies closes its socket: the parent wakes
// on that, reaps it and gives its exit status or signal to the unit it was running. The parent never
// polls: it blocks in poll(2) until a worker speaks or dies, or the next block deadline passes.

#include "BlockPool.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <thread>
#include <vector>

#include "BlockContext.h"
#include "BlockSync.h"
#include "CrossCore.h"
#include "kwb_sim/block_sync.h"

namespace kwb_sim::rt {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kQuit = 0xffffffffu;  // parent -> worker: no more units
enum class Say : std::int32_t { Done = 0, Asleep = 1 };
struct Reply {
  std::uint32_t unit;
  Say what;
};

int g_toParent = -1;  // worker: its end of the socket pair

bool sendAll(int fd, const void* data, std::size_t n) {
  for (;;) {
    const ssize_t w = ::send(fd, data, n, MSG_NOSIGNAL);
    if (w == static_cast<ssize_t>(n)) return true;
    if (w < 0 && errno == EINTR) continue;
    return false;
  }
}

// What a fork gave a block before the pool: the per-block state outside the reset functions of
// beginBlock, as the parent had it at the launch. A worker restores it before each block after its first.
struct LaunchImage {
  BlockState block;
  const char* lastApi;
  SrcLoc lastLoc;
  GM_ADDR workspace;
};

[[noreturn]] void workerMain(const PoolLaunch& L, int sock, std::uint32_t firstUnit) {
  g_toParent = sock;
  const std::uint32_t perBlock = L.layout.coresPerBlock();
  const LaunchImage image{g_block, R().lastApi, R().lastLoc, sysWorkspace()};
  std::uint32_t unit = firstUnit;
  for (long ran = 0;; ++ran) {
    if (ran > 0) {
      g_block = image.block;
      R().lastApi = image.lastApi;
      R().lastLoc = image.lastLoc;
      for (std::uint16_t& m : R().mrgSortResult) m = 0;
      sysWorkspace() = image.workspace;
    }
    const std::uint32_t slot = unit % perBlock;
    CorePlace place;
    place.unit = unit;
    place.core = L.layout.coreOfSlot(slot);
    place.subBlockIdx = place.core == CoreKind::Aiv ? slot - 1 : 0;
    place.subBlockNum = place.core == CoreKind::Aiv ? L.layout.aivPerBlock : 1;
    place.coresPerBlock = perBlock;
    setBlockLayout(L.layout);
    beginBlock(L.workDir, unit / perBlock, L.blockDim, &place);
    if (L.enterBlock) L.enterBlock();
    rawEnterKernel();  // raw GM/UB access handlers (fall back to the crash handlers); views protected
    L.thunk(L.ctx);
    // The last block this process may run ends it, exactly as one process per block did.
    if (L.perProcess > 0 && ran + 1 >= L.perProcess) endBlock(0, true);
    finishBlock(true);
    R().workDir.clear();  // idle: a stray SIGTERM must not rewrite the finished block's trace
    const Reply done{unit, Say::Done};
    if (!sendAll(sock, &done, sizeof(done))) ::_exit(0);
    std::uint32_t next = kQuit;
    for (;;) {
      const ssize_t n = ::recv(sock, &next, sizeof(next), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n != static_cast<ssize_t>(sizeof(next))) next = kQuit;
      break;
    }
    if (next == kQuit) ::_exit(0);
    unit = next;
  }
}

struct Worker {
  pid_t pid = -1;
  int sock = -1;        // the parent's end
  long long unit = -1;  // the unit it runs, -1 when idle
  Clock::time_point start;
  long ran = 0;
  bool stopping = false;  // told to stop (timeout): never given another unit, even if it answers Done
};

}  // namespace

const char* signalName(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGABRT:
      return "SIGABRT";
    case SIGKILL:
      return "SIGKILL";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "signal";
  }
}

void poolNoteAsleep() {
  if (g_toParent < 0) return;
  const Reply r{g_block.unit, Say::Asleep};
  sendAll(g_toParent, &r, sizeof(r));
}

void runPool(const PoolLaunch& L, LaunchResult& res) {
  const std::uint32_t perBlock = L.layout.coresPerBlock();
  const std::uint32_t units = L.blockDim * perBlock;
  std::vector<Worker> workers;
  std::vector<Clock::time_point> started(units);
  std::uint32_t next = 0, finished = 0;
  const auto asleep = [] { return blockSyncWaiting() + crossCoreWaiting(); };

  const auto endUnit = [&](std::uint32_t u) {
    ++finished;
    blockSyncMarkEnded(u);
    crossCoreMarkEnded(u);
    res.blocks[u].elapsedMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started[u]).count();
  };
  const auto startUnit = [&](Worker& w, std::uint32_t u) {
    crossCoreMarkStarted(u);
    started[u] = Clock::now();
    w.unit = u;
    w.start = started[u];
    ++w.ran;
  };
  // Forks a worker that starts with unit u; false when the fork (or its socket) failed.
  const auto spawn = [&](std::uint32_t u) {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) return false;
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(sv[0]);
      for (const Worker& w : workers)
        if (w.sock >= 0) ::close(w.sock);  // a sibling's death must close its socket, not linger here
      workerMain(L, sv[1], u);
    }
    ::close(sv[1]);
    if (pid < 0) {
      ::close(sv[0]);
      return false;
    }
    Worker w;
    w.pid = pid;
    w.sock = sv[0];
    startUnit(w, u);
    workers.push_back(w);
    return true;
  };
  // A worker's socket closed: it exited or died. The unit it ran takes its status.
  const auto reap = [&](Worker& w) {
    int status = 0;
    while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    ::close(w.sock);
    w.sock = -1;
    if (w.unit < 0) return;
    const auto u = static_cast<std::uint32_t>(w.unit);
    w.unit = -1;
    endUnit(u);
    BlockResult& br = res.blocks[u];
    if (br.status == BlockStatus::TimedOut) return;
    if (WIFSIGNALED(status)) {
      br.status = BlockStatus::Crashed;
      br.signal = WTERMSIG(status);
      br.signalName = signalName(br.signal);
    } else if (WIFEXITED(status)) {
      br.exitCode = WEXITSTATUS(status);
      br.status = br.exitCode == 0
                      ? BlockStatus::Ok
                      : (br.exitCode == kAbortExit ? BlockStatus::Aborted : BlockStatus::ExitedNonZero);
    }
  };
  const auto busy = [&] {
    std::uint32_t n = 0;
    for (const Worker& w : workers) n += w.sock >= 0 && w.unit >= 0 ? 1 : 0;
    return n;
  };

  while (finished < units) {
    // Hand out units: to an idle worker first, else to a new one while fewer than `jobs` are awake.
    while (next < units) {
      Worker* idle = nullptr;
      for (Worker& w : workers)
        if (w.sock >= 0 && w.unit < 0 && !w.stopping && (L.perProcess <= 0 || w.ran < L.perProcess))
          idle = &w;
      if (idle != nullptr) {
        if (sendAll(idle->sock, &next, sizeof(next))) {
          startUnit(*idle, next++);
        } else {
          reap(*idle);  // it died idle; the unit goes to another worker
        }
        continue;
      }
      const std::uint32_t running = busy();
      if (running - std::min(running, asleep()) >= static_cast<std::uint32_t>(L.jobs)) break;
      if (spawn(next)) {
        ++next;
        continue;
      }
      if (running > 0) break;  // retry once one of them finishes
      res.blocks[next].status = BlockStatus::ForkFailed;
      blockSyncMarkEnded(next);
      crossCoreMarkEnded(next);
      ++finished;
      ++next;
    }
    if (finished >= units) break;
    // Idle workers whose limit is reached (KWB_SIM_BLOCKS_PER_PROCESS) are not kept.
    // Wait for a reply, a death or the next deadline.
    std::vector<pollfd> fds;
    std::vector<Worker*> of;
    auto wait = std::chrono::milliseconds::max();
    const auto now = Clock::now();
    for (Worker& w : workers) {
      if (w.sock < 0) continue;
      fds.push_back(pollfd{w.sock, POLLIN, 0});
      of.push_back(&w);
      if (w.unit < 0 || res.blocks[static_cast<std::size_t>(w.unit)].status == BlockStatus::TimedOut)
        continue;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          w.start + std::chrono::milliseconds(L.timeoutMs) - now);
      wait = std::min(wait, std::max(left, std::chrono::milliseconds(0)) + std::chrono::milliseconds(1));
    }
    const int timeout = wait == std::chrono::milliseconds::max()
                            ? -1
                            : static_cast<int>(std::min<long long>(wait.count(), INT_MAX));
    const int ready = ::poll(fds.data(), fds.size(), timeout);
    if (ready < 0 && errno != EINTR) break;
    for (std::size_t i = 0; ready > 0 && i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      Worker& w = *of[i];
      Reply r{};
      const ssize_t n = (fds[i].revents & POLLIN) != 0 ? ::recv(w.sock, &r, sizeof(r), MSG_DONTWAIT) : 0;
      if (n == static_cast<ssize_t>(sizeof(r))) {
        if (r.what == Say::Done && w.unit == static_cast<long long>(r.unit)) {
          w.unit = -1;
          endUnit(r.unit);  // BlockResult stays Ok: the block returned from the kernel
        }
        continue;  // Asleep: the hand-out above looks at the sleeping count again
      }
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      reap(w);
    }
    // The per-block wall timeout: the worker is told to stop (its handler writes the partial trace),
    // then killed if it does not.
    const auto after = Clock::now();
    for (Worker& w : workers) {
      if (w.sock < 0 || w.unit < 0) continue;
      BlockResult& br = res.blocks[static_cast<std::size_t>(w.unit)];
      if (br.status == BlockStatus::TimedOut) continue;
      if (std::chrono::duration_cast<std::chrono::milliseconds>(after - w.start).count() <= L.timeoutMs)
        continue;
      br.status = BlockStatus::TimedOut;
      br.timeoutMs = L.timeoutMs;
      w.stopping = true;
      ::kill(w.pid, SIGTERM);
      const pid_t victim = w.pid;
      std::thread([victim] {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        ::kill(victim, SIGKILL);
      }).detach();
    }
  }
  // Every unit ended: the idle workers are told to go, then reaped.
  for (Worker& w : workers) {
    if (w.sock < 0) continue;
    const std::uint32_t quit = kQuit;
    sendAll(w.sock, &quit, sizeof(quit));
    w.unit = -1;
    reap(w);
  }
}

}  // namespace kwb_sim::rt
