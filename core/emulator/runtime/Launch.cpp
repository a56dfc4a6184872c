// SPDX-License-Identifier: MIT
// ICPU_RUN_KF: the blocks run in forked processes on shared GM (like CANN's CPU mode; a pool of workers
// that run blocks one after another, BlockPool.h), with a per-block wall timeout, crash capture (signal +
// last emulated API), then the parent merges what the blocks sent back (diagnostics, traces), runs the
// cross-block checks, the cost model, and writes the report.

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "BlockContext.h"
#include "BlockPool.h"
#include "BlockSync.h"
#include "CrossCore.h"
#include "KernelType.h"
#include "LaunchReport.h"

namespace kwb_sim {

namespace {
int g_kernelMode = 0;
std::uint64_t g_tilingKey = 0;

// Child: crash path. Writes one diagnostic line with the signal and the last emulated API, the partial
// trace, then dies by the same signal so the parent sees it.
void onCrash(int sig) {
  rt::Runtime& r = rt::R();
  char line[2048];
  const char* file = r.lastLoc.file ? r.lastLoc.file : "";
  char safeFile[1024];
  std::size_t k = 0;
  for (const char* p = file; *p && k + 2 < sizeof(safeFile); ++p) {
    if (*p == '"' || *p == '\\') safeFile[k++] = '\\';
    safeFile[k++] = *p;
  }
  safeFile[k] = 0;
  const int n = std::snprintf(
      line, sizeof(line),
      "{\"category\":\"runtime-crash\",\"severity\":\"error\",\"api\":\"%s\",\"file\":\"%s\",\"line\":%u,"
      "\"pipe\":\"\",\"operand\":-2,\"block\":%lld,\"signal\":%d,\"message\":\"block %lld died with %s "
      "(signal %d)"
      "%s%s%s\"}\n",
      r.lastApi ? r.lastApi : "", safeFile, r.lastLoc.line, static_cast<long long>(g_block.blockIdx), sig,
      static_cast<long long>(g_block.blockIdx), rt::signalName(sig), sig,
      r.lastApi && *r.lastApi ? "; the last emulated API call was " : "", r.lastApi ? r.lastApi : "",
      r.lastApi && *r.lastApi ? " (at the line given); the fault happened in kernel code after it" : "");
  const int fd = rt::diagFile();
  if (fd >= 0 && n > 0) {
    const ssize_t w = ::write(fd, line, static_cast<std::size_t>(n));
    (void)w;
  }
  rt::writeTraceFile(false);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Child: the parent asks a hung block to stop; the partial trace tells which API ran last.
void onTerm(int) {
  rt::writeTraceFile(false);
  ::_exit(124);
}

void installCrashHandlers() {
  ::signal(SIGTERM, onTerm);
  static char altStack[64 * 1024];
  stack_t ss{};
  ss.ss_sp = altStack;
  ss.ss_size = sizeof(altStack);
  ::sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_handler = onCrash;
  sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &sa, nullptr);
}

long envLong(const char* name, long dflt) {
  const char* v = std::getenv(name);
  if (!v || !*v) return dflt;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return end && *end == 0 && x > 0 ? x : dflt;
}

std::string makeWorkDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/kwb_sim_XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back(0);
  if (!::mkdtemp(buf.data())) return {};
  return std::string(buf.data());
}

bool g_atexitInstalled = false;
void atExit() {
  if (rt::launchErrorCount() > 0) {
    std::fflush(nullptr);
    ::_exit(1);
  }
}
}  // namespace

void setKernelMode(int mode) {
  g_kernelMode = mode;
}
void setTilingKey(std::uint64_t key) {
  g_tilingKey = key;
}
std::uint64_t tilingKey() {
  return g_tilingKey;
}

int launch(const char* kernelName, std::uint32_t blockDim, KernelThunk thunk, void* ctx, SrcLoc loc,
           const char* socName, bool autoSync, const char* form, const void* entry, int mixCube,
           int mixVector) {
  rt::selectSoc(socName);
  g_block.autoSync = autoSync;
  if (!g_atexitInstalled) {
    std::atexit(atExit);
    g_atexitInstalled = true;
  }
  rt::LaunchResult res;
  res.kernel = kernelName ? kernelName : "";
  res.blockDim = blockDim;
  res.launchLoc = loc;
  res.autoSync = autoSync;
  if (blockDim == 0 || blockDim > 65535) {
    res.parentLines.push_back(rt::diagLine(
        Cat::InvalidParam, form ? form : "ICPU_RUN_KF", loc, Pipe::None, 1,
        "blockDim = " + std::to_string(blockDim) + " is outside 1..65535; the kernel was not run", -1));
    rt::finishLaunch(res);
    return 1;
  }
  // Honest output: whoever reads the program's log sees that no NPU ran it.
  std::fprintf(stderr,
               "[INFO][kwb-sim] %s: %u blocks run on the kwb emulator (CPU model of %s), not on an NPU\n",
               res.kernel.c_str(), blockDim, socName ? socName : "");
  const std::string dir = makeWorkDir();
  if (dir.empty()) {
    std::fprintf(stderr, "[ERROR][kwb-sim] cannot create a temporary directory for the launch\n");
    return 3;
  }
  res.workDir = dir;
  const long timeoutMs = envLong("KWB_SIM_BLOCK_TIMEOUT_MS", 60000);
  long jobs = envLong("KWB_SIM_JOBS", static_cast<long>(std::thread::hardware_concurrency()));
  if (jobs < 1) jobs = 1;
  // The kernel type decides how many processes a block is (1 AIC + 1 or 2 AIV for a mix kernel).
  const rt::KernelLayout layout = rt::resolveKernelLayout(entry, rt::MixRatio{mixCube, mixVector}, thunk, ctx,
                                                          dir, blockDim, std::min(timeoutMs, 10000L));
  const std::uint32_t perBlock = layout.coresPerBlock();
  const std::uint32_t units = blockDim * perBlock;
  res.coresPerBlock = perBlock;
  res.kernelType = layout.type;

  res.blocks.resize(units);
  // SyncAll's barrier (BlockSync.h) and the cross-core flags (CrossCore.h) span every process; without
  // them the launch still runs, and a SyncAll or CrossCore call reports why it cannot.
  rt::blockSyncCreate(units);
  rt::crossCoreCreate(blockDim, layout);
  rt::PoolLaunch pool;
  pool.thunk = thunk;
  pool.ctx = ctx;
  pool.workDir = dir;
  pool.blockDim = blockDim;
  pool.layout = layout;
  pool.jobs = jobs;
  pool.timeoutMs = timeoutMs;
  pool.perProcess = envLong("KWB_SIM_BLOCKS_PER_PROCESS", 0);
  pool.enterBlock = installCrashHandlers;
  rt::runPool(pool, res);
  // Flags set and never waited for (the parent's view of every counter once all processes ended).
  rt::crossCoreEndOfLaunch(res.parentLines);
  rt::crossCoreDestroy();
  rt::blockSyncDestroy();
  rt::finishLaunch(res);
  return rt::launchErrorCount() > 0 ? 1 : 0;
}

}  // namespace kwb_sim
