// SPDX-License-Identifier: MIT
// CrossCoreSetFlag / CrossCoreWaitFlag across the launch's processes (CrossCore.h, docs/emulator.md
// "Mixed AIC/AIV kernels"). The modes follow the API reference (CrossCoreSetFlag(ISASI)): mode 0 syncs
// every core of the setter's type, mode 1 the AIVs of one block, mode 2 a block's AIC with its AIVs.

#include "CrossCore.h"

#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <ctime>
#include <new>

#include "BlockContext.h"
#include "BlockPool.h"

namespace kwb_sim::rt {

namespace {

using Counter = std::atomic<std::uint32_t>;

static_assert(std::atomic<const char*>::is_always_lock_free, "file pointers are shared between processes");

struct FlagCounter {
  Counter pending{0};  // sets not consumed by a wait yet
  Counter raised{0};   // sets that reached this counter in the launch
  Counter setLine{0};  // the last set that raised it: its line, file and the setting process
  std::atomic<const char*> setFile{nullptr};  // a string literal of the program (same address in every
                                              // forked process)
  Counter setter{0};
  Counter setMode{0};
};

struct UnitState {
  FlagCounter flags[kCrossCoreFlags];
  Counter waitingOn{0};  // flag id + 1 while asleep in a CrossCoreWaitFlag, 0 otherwise
  Counter waitLine{0};
  Counter started{0};
  Counter ended{0};
};

struct Arrivals {
  Counter count[kCrossCoreFlags];
};

struct CrossShared {
  Counter epoch{0};  // bumped by every set, consumed wait and ended process (the futex word)
  Counter waiting{0};
  std::uint32_t units = 0;
  std::uint32_t blockDim = 0;
  std::uint32_t perBlock = 1;
  std::uint32_t aivPerBlock = 1;
  bool mix = false;
  bool aicKernel = false;  // cube-only: every process is an AIC
  int kernelType = 0;
  Arrivals mode0[2];  // [0] AIC, [1] AIV
};

struct CrossRegion {
  CrossShared* shared = nullptr;
  UnitState* units = nullptr;
  Arrivals* mode1 = nullptr;  // per block: AIV arrivals toward both AIVs
  Arrivals* mode2 = nullptr;  // per block: AIV arrivals toward the AIC
  std::size_t bytes = 0;
};

CrossRegion& region() {
  static CrossRegion r;
  return r;
}

void futexWait(Counter& word, std::uint32_t expected, long timeoutNs) {
  timespec ts{0, timeoutNs};
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, expected, &ts, nullptr, 0);
}
void futexWakeAll(Counter& word) {
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}
void bump(CrossShared& s) {
  s.epoch.fetch_add(1, std::memory_order_acq_rel);
  futexWakeAll(s.epoch);
}

bool isAic(const CrossShared& s, std::uint32_t u) {
  return s.mix ? u % s.perBlock == 0 : s.aicKernel;
}

std::string unitName(const CrossShared& s, std::uint32_t u) {
  if (!s.mix) return "block " + std::to_string(u) + (s.aicKernel ? " (AIC)" : "");
  const std::uint32_t slot = u % s.perBlock;
  return "block " + std::to_string(u / s.perBlock) +
         (slot == 0 ? " AIC" : " AIV " + std::to_string(slot - 1));
}

std::string here() {
  const CrossRegion& r = region();
  return r.shared ? unitName(*r.shared, g_block.unit) : std::string("this core");
}

const char* modeWords(int mode) {
  switch (mode) {
    case 0:
      return "mode 0: every core of the setter's type";
    case 1:
      return "mode 1: the AIVs of one block";
    default:
      return "mode 2: a block's AIC and its AIVs";
  }
}

void checkFlagId(const char* api, std::int64_t flagId, SrcLoc loc) {
  if (flagId < 0 || flagId >= static_cast<std::int64_t>(kCrossCoreFlags))
    fatal(Cat::InvalidParam, api, loc, Pipe::S, kOperandNone,
          std::string(api) + ": flagId " + std::to_string(flagId) + " is outside 0.." +
              std::to_string(kCrossCoreFlags - 1) +
              " (A2/A3 give each AIC and AIV 16 cross-core flags for modes 0-2; the hardware keeps only the "
              "low "
              "4 bits of a larger id, so it would alias flag " +
              std::to_string(flagId & 15) + ")");
}

CrossRegion& needRegion(const char* api, SrcLoc loc) {
  CrossRegion& r = region();
  if (!r.shared)
    fatal(Cat::InvalidParam, api, loc, Pipe::S, kOperandNone,
          std::string(api) +
              " outside a kernel launch (or the launch could not map its flags): nothing to "
              "synchronise with");
  return r;
}

void raise(CrossRegion& r, std::uint32_t target, std::uint32_t flag, int mode, SrcLoc loc) {
  FlagCounter& c = r.units[target].flags[flag];
  c.setFile.store(loc.file, std::memory_order_relaxed);
  c.setLine.store(loc.line, std::memory_order_relaxed);
  c.setter.store(g_block.unit, std::memory_order_relaxed);
  c.setMode.store(static_cast<std::uint32_t>(mode), std::memory_order_relaxed);
  c.raised.fetch_add(1, std::memory_order_acq_rel);
  const std::uint32_t now = c.pending.fetch_add(1, std::memory_order_acq_rel) + 1;
  if (now > kCrossCoreMaxPending)
    report(Cat::InvalidParam, "CrossCoreSetFlag", loc, Pipe::S, kOperandNone,
           "CrossCoreSetFlag(" + std::to_string(flag) + ") leaves " + std::to_string(now) +
               " sets pending on " + unitName(*r.shared, target) + "'s counter, more than the " +
               std::to_string(kCrossCoreMaxPending) +
               " one counter holds (the API reference): the receiving core must wait before more sets come");
}

// The others that could still raise this process's counter: any process that has not ended and is not
// itself asleep in a wait nothing can satisfy.
bool anyoneCanSet(const CrossRegion& r) {
  const CrossShared& s = *r.shared;
  for (std::uint32_t u = 0; u < s.units; ++u) {
    if (u == g_block.unit) continue;
    const UnitState& o = r.units[u];
    if (o.ended.load(std::memory_order_acquire) != 0) continue;
    if (o.started.load(std::memory_order_acquire) == 0) return true;
    const std::uint32_t w = o.waitingOn.load(std::memory_order_acquire);
    if (w == 0) return true;
    if (o.flags[w - 1].pending.load(std::memory_order_acquire) != 0) return true;
  }
  return false;
}

std::string hangMessage(const CrossRegion& r, std::uint32_t flag) {
  const CrossShared& s = *r.shared;
  std::string others;
  std::uint32_t listed = 0, total = 0;
  for (std::uint32_t u = 0; u < s.units; ++u) {
    if (u == g_block.unit) continue;
    ++total;
    if (listed == 4) continue;
    const UnitState& o = r.units[u];
    const std::uint32_t w = o.waitingOn.load(std::memory_order_acquire);
    std::string what;
    if (o.ended.load(std::memory_order_acquire) != 0) {
      what = "ended";
    } else if (w != 0) {
      what = "waits for flag " + std::to_string(w - 1) + " at line " +
             std::to_string(o.waitLine.load(std::memory_order_acquire));
    } else {
      what = "running";
    }
    if (!others.empty()) others += ", ";
    others += unitName(s, u) + " " + what;
    ++listed;
  }
  if (total > listed) others += " and " + std::to_string(total - listed) + " more";
  const std::uint32_t raised = r.units[g_block.unit].flags[flag].raised.load(std::memory_order_acquire);
  return "CrossCoreWaitFlag(" + std::to_string(flag) + ") on " + here() +
         " waits for a set that can never come (" +
         (raised == 0 ? std::string("no set of this flag reached this core")
                      : std::to_string(raised) +
                            " set(s) of this flag reached this core, all consumed by earlier waits") +
         "; " + (others.empty() ? "no other core" : others) +
         "): on hardware this core hangs here. The CrossCoreSetFlag for flag " + std::to_string(flag) +
         " that should release it is missing, uses another flag id or mode, or sits on a path the setting "
         "core "
         "did not take" +
         (s.mix ? std::string(" (mode 2 pairs a block's AIC with its AIVs; the AIC's set releases both AIVs, "
                              "and the AIC's wait needs a set from every AIV of the block)")
                : std::string());
}

}  // namespace

bool crossCoreCreate(std::uint32_t blockDim, const KernelLayout& layout) {
  crossCoreDestroy();
  CrossRegion& r = region();
  const std::uint32_t perBlock = layout.coresPerBlock();
  const std::uint32_t units = blockDim * perBlock;
  const std::size_t bytes = sizeof(CrossShared) + std::size_t{units} * sizeof(UnitState) +
                            2 * std::size_t{blockDim} * sizeof(Arrivals);
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  auto* base = static_cast<char*>(p);
  r.shared = new (p) CrossShared();
  r.shared->units = units;
  r.shared->blockDim = blockDim;
  r.shared->perBlock = perBlock;
  r.shared->aivPerBlock = layout.aivPerBlock;
  r.shared->mix = layout.mix();
  r.shared->aicKernel = layout.aicPerBlock && !layout.mix();
  r.shared->kernelType = layout.type;
  r.units = reinterpret_cast<UnitState*>(base + sizeof(CrossShared));
  for (std::uint32_t u = 0; u < units; ++u) new (&r.units[u]) UnitState();
  r.mode1 = reinterpret_cast<Arrivals*>(base + sizeof(CrossShared) + std::size_t{units} * sizeof(UnitState));
  r.mode2 = r.mode1 + blockDim;
  for (std::uint32_t b = 0; b < 2 * blockDim; ++b) new (&r.mode1[b]) Arrivals();
  r.bytes = bytes;
  return true;
}

void crossCoreDestroy() {
  CrossRegion& r = region();
  if (r.shared) ::munmap(r.shared, r.bytes);
  r = CrossRegion{};
}

std::uint32_t crossCoreWaiting() {
  const CrossRegion& r = region();
  return r.shared ? r.shared->waiting.load(std::memory_order_acquire) : 0;
}

void crossCoreMarkStarted(std::uint32_t unit) {
  CrossRegion& r = region();
  if (r.shared && unit < r.shared->units) r.units[unit].started.store(1, std::memory_order_release);
}

void crossCoreMarkEnded(std::uint32_t unit) {
  CrossRegion& r = region();
  if (!r.shared || unit >= r.shared->units) return;
  r.units[unit].ended.store(1, std::memory_order_release);
  bump(*r.shared);
}

void crossCoreEndOfLaunch(std::vector<std::string>& parentLines) {
  CrossRegion& r = region();
  if (!r.shared) return;
  const CrossShared& s = *r.shared;
  for (std::uint32_t u = 0; u < s.units; ++u) {
    for (std::uint32_t f = 0; f < kCrossCoreFlags; ++f) {
      const FlagCounter& c = r.units[u].flags[f];
      const std::uint32_t pending = c.pending.load(std::memory_order_acquire);
      if (pending == 0) continue;
      const std::uint32_t setter = c.setter.load(std::memory_order_acquire);
      const SrcLoc at{c.setFile.load(std::memory_order_acquire), c.setLine.load(std::memory_order_acquire)};
      const std::string msg =
          "CrossCoreSetFlag(" + std::to_string(f) + ") here (" +
          modeWords(static_cast<int>(c.setMode.load())) + ", set by " + unitName(s, setter) + ") left " +
          std::to_string(pending) + " of " + std::to_string(c.raised.load()) + " set(s) on " +
          unitName(s, u) + "'s counter that no CrossCoreWaitFlag(" + std::to_string(f) +
          ") consumed before the kernel ended: the receiving core never waited for the data this set "
          "announces (a missing wait, a wait on another flag id, or one wait fewer than sets); on hardware "
          "the stale count releases a later wait too early";
      parentLines.push_back(diagLine(Cat::UnpairedFlag, "CrossCoreSetFlag", at, Pipe::S, kOperandNone, msg,
                                     static_cast<std::int64_t>(s.mix ? setter / s.perBlock : setter)));
    }
  }
}

}  // namespace kwb_sim::rt

namespace kwb_sim {

void crossCoreSet(int mode, Pipe pipe, std::int64_t flagId, SrcLoc loc) {
  using namespace rt;
  checkFlagId("CrossCoreSetFlag", flagId, loc);
  {
    // The flag and mode travel in the record so that the trusted side can replay which set released
    // which wait (core/emulator/analysis/CrossCoreOrder.h).
    Instr& in = record("CrossCoreSetFlag", loc, pipe);
    in.syncId = static_cast<std::int32_t>(flagId);
    in.count = static_cast<std::uint32_t>(mode);
  }
  CrossRegion& r = needRegion("CrossCoreSetFlag", loc);
  CrossShared& s = *r.shared;
  const auto flag = static_cast<std::uint32_t>(flagId);
  const std::uint32_t me = g_block.unit;
  const bool aic = isAic(s, me);
  const std::uint32_t block = s.mix ? me / s.perBlock : me;
  const std::uint32_t first = s.mix ? block * s.perBlock : me;  // the block's first process
  if (mode == 0) {
    // Every core of the setter's type: all of them must set before any of them is released.
    std::uint32_t ofType = 0;
    for (std::uint32_t u = 0; u < s.units; ++u) ofType += isAic(s, u) == aic ? 1 : 0;
    const std::uint32_t v = s.mode0[aic ? 0 : 1].count[flag].fetch_add(1, std::memory_order_acq_rel) + 1;
    if (v % ofType == 0)
      for (std::uint32_t u = 0; u < s.units; ++u)
        if (isAic(s, u) == aic) raise(r, u, flag, mode, loc);
  } else if (mode == 1) {
    if (aic)
      fatal(Cat::InvalidParam, "CrossCoreSetFlag", loc, Pipe::S, kOperandNone,
            "CrossCoreSetFlag<1, ...> syncs the AIV cores of a block, but it runs on " + here() +
                "; use mode 2 between a block's AIC and its AIVs, mode 0 between all AIC cores");
    const std::uint32_t aivs = s.mix ? s.aivPerBlock : 1;
    const std::uint32_t v = r.mode1[block].count[flag].fetch_add(1, std::memory_order_acq_rel) + 1;
    if (v % aivs == 0)
      for (std::uint32_t k = 0; k < aivs; ++k) raise(r, s.mix ? first + 1 + k : me, flag, mode, loc);
  } else {
    if (!s.mix)
      fatal(
          Cat::InvalidParam, "CrossCoreSetFlag", loc, Pipe::S, kOperandNone,
          std::string("CrossCoreSetFlag<2, ...> syncs a block's AIC with its AIVs, but the kernel runs as ") +
              kernelTypeName(s.kernelType) +
              " (one core per block): declare KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2) or _1_1, or "
              "__mix__(1, 2), to run AIC and AIV together");
    if (aic) {
      for (std::uint32_t k = 0; k < s.aivPerBlock; ++k) raise(r, first + 1 + k, flag, mode, loc);
    } else {
      const std::uint32_t v = r.mode2[block].count[flag].fetch_add(1, std::memory_order_acq_rel) + 1;
      if (v % s.aivPerBlock == 0) raise(r, first, flag, mode, loc);
    }
  }
  bump(s);
}

void crossCoreWait(int /*mode*/, Pipe pipe, std::int64_t flagId, SrcLoc loc) {
  using namespace rt;
  checkFlagId("CrossCoreWaitFlag", flagId, loc);
  CrossRegion& r = needRegion("CrossCoreWaitFlag", loc);
  CrossShared& s = *r.shared;
  const auto flag = static_cast<std::uint32_t>(flagId);
  UnitState& mine = r.units[g_block.unit];
  FlagCounter& c = mine.flags[flag];
  bool asleep = false;
  bool suspect = false;  // nobody could set on the previous look, and nothing happened since
  std::uint32_t seenEpoch = s.epoch.load(std::memory_order_acquire);
  for (;;) {
    std::uint32_t p = c.pending.load(std::memory_order_acquire);
    if (p != 0 && c.pending.compare_exchange_weak(p, p - 1, std::memory_order_acq_rel)) break;
    if (p != 0) continue;
    if (!asleep) {
      mine.waitLine.store(loc.line, std::memory_order_release);
      mine.waitingOn.store(flag + 1, std::memory_order_release);
      s.waiting.fetch_add(1, std::memory_order_acq_rel);
      asleep = true;
      poolNoteAsleep();  // the parent may start the process this one waits for (BlockPool.h)
    }
    const std::uint32_t epoch = s.epoch.load(std::memory_order_acquire);
    if (c.pending.load(std::memory_order_acquire) != 0) continue;
    if (!anyoneCanSet(r)) {
      // Twice in a row with no set, wait or end in between: every other process is ended or stuck.
      if (suspect && epoch == seenEpoch) {
        const std::string msg = hangMessage(r, flag);
        s.waiting.fetch_sub(1, std::memory_order_acq_rel);
        fatal(Cat::UnpairedFlag, "CrossCoreWaitFlag", loc, pipe, kOperandNone, msg);
      }
      suspect = true;
    } else {
      suspect = false;
    }
    seenEpoch = epoch;
    futexWait(s.epoch, epoch, 20L * 1000 * 1000);
  }
  if (asleep) {
    mine.waitingOn.store(0, std::memory_order_release);
    s.waiting.fetch_sub(1, std::memory_order_acq_rel);
  }
  bump(s);
  // Later instructions of this core start after the wait (recorded as a barrier on every pipe).
  syncBarrierAll("CrossCoreWaitFlag", loc).syncId = static_cast<std::int32_t>(flagId);
}

}  // namespace kwb_sim
