// SPDX-License-Identifier: MIT
// SyncAll: a barrier across the block processes of one launch, in MAP_SHARED memory the parent maps
// before it forks (BlockSync.h, docs/emulator.md "SyncAll"). Arrivals count up; the last one resets the
// count and bumps the generation, which the others sleep on with a process-shared futex. A waiter that
// sees a participating block ended (the parent marks every block it reaps) knows the barrier can never
// complete and reports the hang at its own SyncAll.

#include "BlockSync.h"

#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <ctime>
#include <new>
#include <string>

#include "BlockContext.h"
#include "BlockPool.h"

namespace kwb_sim::rt {

namespace {

using Counter = std::atomic<std::uint32_t>;
static_assert(Counter::is_always_lock_free && sizeof(Counter) == sizeof(std::uint32_t),
              "the futex word must be a plain 32-bit word");

struct SyncSlot {
  Counter calls{0};     // SyncAll calls this block has entered
  Counter ended{0};     // 1 once the parent reaped the block
  Counter notified{0};  // NotifyNextBlock calls of this block
};

struct SyncShared {
  Counter arrived{0};       // arrivals in the current generation
  Counter generation{0};    // bumped when every participant arrived (the futex word)
  Counter waiting{0};       // blocks sleeping in a SyncAll
  Counter endedCount{0};    // blocks the parent reaped
  Counter participants{0};  // of the current generation (0: nobody arrived yet)
  std::uint32_t blockDim = 0;
};

struct SyncRegion {
  SyncShared* shared = nullptr;
  SyncSlot* slots = nullptr;
  std::size_t bytes = 0;
};

// The mapping of the launch in progress; inherited by every block process with the rest of the parent.
SyncRegion& region() {
  static SyncRegion r;
  return r;
}

void futexWait(Counter& word, std::uint32_t expected, long timeoutNs) {
  timespec ts{0, timeoutNs};
  // Not FUTEX_PRIVATE_FLAG: the word is shared between processes.
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, expected, &ts, nullptr, 0);
}

void futexWakeAll(Counter& word) {
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

// Which processes a barrier waits for: blocks 0..limit-1 of a plain kernel; of a mix kernel every
// sub-core, or only the AIVs (SyncAll<true>), per docs/emulator.md "Mixed AIC/AIV kernels".
struct Members {
  std::uint32_t units = 0;
  std::uint32_t perBlock = 1;
  bool aivOnly = false;
  std::uint32_t limit = 0;  // plain kernels: the participating blocks
  bool contains(std::uint32_t u) const {
    if (perBlock == 1) return u < limit;
    return u < units && (!aivOnly || u % perBlock != 0);
  }
  std::uint32_t count() const {
    if (perBlock == 1) return limit;
    return aivOnly ? units / perBlock * (perBlock - 1) : units;
  }
};

std::string unitName(std::uint32_t u, std::uint32_t perBlock) {
  if (perBlock == 1) return "block " + std::to_string(u);
  const std::uint32_t slot = u % perBlock;
  return "block " + std::to_string(u / perBlock) + (slot == 0 ? " AIC" : " AIV " + std::to_string(slot - 1));
}

// The hang: participants that ended can never arrive. Names up to four of them with their call counts.
std::string hangMessage(const SyncRegion& r, const Members& m, std::uint32_t myCalls, const char* api) {
  std::string ended;
  std::uint32_t listed = 0, total = 0;
  for (std::uint32_t b = 0; b < m.units; ++b) {
    if (!m.contains(b) || r.slots[b].ended.load(std::memory_order_acquire) == 0) continue;
    ++total;
    if (listed == 4) continue;
    const std::uint32_t calls = r.slots[b].calls.load(std::memory_order_acquire);
    if (!ended.empty()) ended += ", ";
    ended += unitName(b, m.perBlock) + " after " + std::to_string(calls) + " " + api +
             (calls == 1 ? " call" : " calls");
    ++listed;
  }
  if (total > listed) ended += " and " + std::to_string(total - listed) + " more";
  const std::string who = m.perBlock == 1 ? "blocks" : (m.aivOnly ? "AIV cores" : "AIC and AIV cores");
  return std::string(api) + " call " + std::to_string(myCalls) + " of " + unitName(g_block.unit, m.perBlock) +
         " waits for all " + std::to_string(m.count()) + " " + who +
         ", but some ended the kernel without reaching it (" + ended +
         "): on hardware the waiting cores hang here. Every block must call " + api +
         " the same number of times (a call inside a branch on GetBlockIdx(), or in a loop whose trip count "
         "differs per block, is the usual cause)";
}

}  // namespace

bool blockSyncCreate(std::uint32_t blockDim) {
  blockSyncDestroy();
  SyncRegion& r = region();
  const std::size_t bytes = sizeof(SyncShared) + std::size_t{blockDim} * sizeof(SyncSlot);
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  r.shared = new (p) SyncShared();
  r.shared->blockDim = blockDim;
  r.slots = reinterpret_cast<SyncSlot*>(static_cast<char*>(p) + sizeof(SyncShared));
  for (std::uint32_t b = 0; b < blockDim; ++b) new (&r.slots[b]) SyncSlot();
  r.bytes = bytes;
  return true;
}

void blockSyncDestroy() {
  SyncRegion& r = region();
  if (r.shared) ::munmap(r.shared, r.bytes);
  r = SyncRegion{};
}

std::uint32_t blockSyncWaiting() {
  const SyncRegion& r = region();
  return r.shared ? r.shared->waiting.load(std::memory_order_acquire) : 0;
}

void blockSyncMarkEnded(std::uint32_t block) {
  SyncRegion& r = region();
  if (!r.shared || block >= r.shared->blockDim) return;
  if (r.slots[block].ended.exchange(1, std::memory_order_acq_rel) != 0) return;
  r.shared->endedCount.fetch_add(1, std::memory_order_acq_rel);
  futexWakeAll(r.shared->generation);
}

}  // namespace kwb_sim::rt

namespace kwb_sim {

using rt::region;

GM_ADDR& sysWorkspace() {
  static GM_ADDR workspace = nullptr;  // per process, i.e. per block
  return workspace;
}

namespace {
void barrierAcross(rt::Members m, const char* api, SrcLoc loc) {
  using namespace rt;
  // On the block itself SyncAll waits for all of its pipes first. The record says who the barrier spans
  // (syncId 1: the AIVs only; count: a plain kernel's participating blocks) for the cross-core ordering
  // of the overlap check (core/emulator/analysis/CrossCoreOrder.h).
  Instr& in = syncBarrierAll(api, loc);
  in.syncId = m.aivOnly ? 1 : 0;
  in.count = m.perBlock == 1 ? m.limit : 0;
  SyncRegion& r = region();
  if (!r.shared) {
    fatal(Cat::InvalidParam, api, loc, Pipe::All, kOperandNone,
          std::string(api) +
              " outside a kernel launch (or the launch could not map its barrier): nothing to "
              "synchronise with");
  }
  SyncShared& s = *r.shared;
  m.units = s.blockDim;
  const std::uint32_t me = g_block.unit;
  if (!m.contains(me)) {
    report(Cat::InvalidParam, api, loc, Pipe::All, kOperandNone,
           m.perBlock == 1
               ? std::string(api) + ": block " + std::to_string(me) + " is not one of the " +
                     std::to_string(m.limit) + " blocks that take part (usedCores); it does not wait"
               : std::string(api) +
                     "<true> syncs the AIV cores only, but it runs on the AIC here; it does not "
                     "wait (SyncAll<false> syncs the AIC and AIV cores of a mix kernel)");
    return;
  }
  std::uint32_t participants = m.count();
  const std::uint32_t myCalls = r.slots[me].calls.fetch_add(1, std::memory_order_acq_rel) + 1;
  const std::uint32_t gen = s.generation.load(std::memory_order_acquire);
  std::uint32_t expected = 0;
  if (!s.participants.compare_exchange_strong(expected, participants, std::memory_order_acq_rel) &&
      expected != participants) {
    report(Cat::InvalidParam, api, loc, Pipe::All, kOperandNone,
           std::string(api) + ": this core syncs " + std::to_string(participants) +
               " cores where another core of the same barrier syncs " + std::to_string(expected) +
               " (usedCores, and SyncAll's isAIVOnly, must be the same on every core)");
    participants = expected;
  }
  s.waiting.fetch_add(1, std::memory_order_acq_rel);
  if (s.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == participants) {
    s.arrived.store(0, std::memory_order_release);
    s.participants.store(0, std::memory_order_release);
    s.waiting.fetch_sub(1, std::memory_order_acq_rel);
    s.generation.fetch_add(1, std::memory_order_acq_rel);
    futexWakeAll(s.generation);
    return;
  }
  poolNoteAsleep();  // the parent may start the blocks this one waits for (BlockPool.h)
  while (s.generation.load(std::memory_order_acquire) == gen) {
    bool doomed = false;
    if (s.endedCount.load(std::memory_order_acquire) != 0)
      for (std::uint32_t b = 0; b < m.units && !doomed; ++b)
        doomed = m.contains(b) && r.slots[b].ended.load(std::memory_order_acquire) != 0;
    if (doomed && s.generation.load(std::memory_order_acquire) == gen) {
      s.waiting.fetch_sub(1, std::memory_order_acq_rel);
      fatal(Cat::UnpairedFlag, api, loc, Pipe::All, kOperandNone, hangMessage(r, m, myCalls, api));
    }
    futexWait(s.generation, gen, 20L * 1000 * 1000);
  }
  s.waiting.fetch_sub(1, std::memory_order_acq_rel);
}
}  // namespace

void ibWaitFlag(const std::int32_t* flagAlias, std::uint32_t setter, std::int32_t eventID, const char* api,
                SrcLoc loc) {
  using namespace rt;
  if (__atomic_load_n(flagAlias, __ATOMIC_ACQUIRE) == 1) return;
  SyncRegion& r = region();
  // Counted as asleep, so that the parent starts the block this one waits for (BlockPool.h).
  if (r.shared) r.shared->waiting.fetch_add(1, std::memory_order_acq_rel);
  poolNoteAsleep();
  while (__atomic_load_n(flagAlias, __ATOMIC_ACQUIRE) != 1) {
    // The setter's slot is a plain kernel's block (a mix kernel's cores are not tracked one by one: the
    // block timeout ends such a hang instead).
    const bool ended =
        r.shared && setter < r.shared->blockDim && r.slots[setter].ended.load(std::memory_order_acquire) != 0;
    if (ended && __atomic_load_n(flagAlias, __ATOMIC_ACQUIRE) != 1) {
      r.shared->waiting.fetch_sub(1, std::memory_order_acq_rel);
      fatal(Cat::UnpairedFlag, api, loc, Pipe::All, kOperandNone,
            std::string(api) + " waits for block " + std::to_string(setter) + "'s IBSet of event " +
                std::to_string(eventID) + ", but block " + std::to_string(setter) +
                " ended without it: on hardware this core hangs here. Call IBSet(gmWorkspace, ubWorkspace, " +
                std::to_string(setter) + ", " + std::to_string(eventID) +
                ") on that block with the same gmWorkspace, or do not wait");
    }
    timespec ts{0, 50L * 1000};
    ::nanosleep(&ts, nullptr);
  }
  if (r.shared) r.shared->waiting.fetch_sub(1, std::memory_order_acq_rel);
}

void determineNotify(const char* api, SrcLoc loc) {
  using namespace rt;
  SyncRegion& r = region();
  const std::uint32_t me = g_block.unit;
  if (!r.shared || me >= r.shared->blockDim) {
    report(Cat::InvalidParam, api, loc, Pipe::All, kOperandNone,
           std::string(api) + " outside a plain kernel launch: nothing to notify");
    return;
  }
  r.slots[me].notified.fetch_add(1, std::memory_order_acq_rel);
}

void determineWait(std::uint32_t round, const char* api, SrcLoc loc) {
  using namespace rt;
  SyncRegion& r = region();
  const std::uint32_t me = g_block.unit;
  if (!r.shared || me >= r.shared->blockDim || g_block.coresPerBlock > 1) {
    report(Cat::InvalidParam, api, loc, Pipe::All, kOperandNone,
           std::string(api) +
               ": emulated in plain vector kernels only (the reference: AIV cores); it does not wait");
    return;
  }
  const std::uint32_t n = r.shared->blockDim;
  // Block 0 starts a round when the last block finished the previous one; block b when block b-1
  // finished this one.
  const std::uint32_t prev = me == 0 ? n - 1 : me - 1;
  const std::uint32_t need = me == 0 ? round : round + 1;
  if (n == 1 || need == 0) return;
  SyncSlot& p = r.slots[prev];
  if (p.notified.load(std::memory_order_acquire) >= need) return;
  // Counted as asleep, so that the parent starts the block this one waits for (BlockPool.h).
  r.shared->waiting.fetch_add(1, std::memory_order_acq_rel);
  poolNoteAsleep();
  while (p.notified.load(std::memory_order_acquire) < need) {
    if (p.ended.load(std::memory_order_acquire) != 0 && p.notified.load(std::memory_order_acquire) < need) {
      r.shared->waiting.fetch_sub(1, std::memory_order_acq_rel);
      fatal(Cat::UnpairedFlag, api, loc, Pipe::All, kOperandNone,
            std::string(api) + " call " + std::to_string(round + 1) + " of block " + std::to_string(me) +
                " waits for block " + std::to_string(prev) + "'s NotifyNextBlock call " +
                std::to_string(need) + ", but block " + std::to_string(prev) + " ended after " +
                std::to_string(p.notified.load(std::memory_order_acquire)) +
                ": on hardware this core hangs here. Every block must call WaitPreBlock and NotifyNextBlock "
                "the same number of times");
    }
    timespec ts{0, 50L * 1000};
    ::nanosleep(&ts, nullptr);
  }
  r.shared->waiting.fetch_sub(1, std::memory_order_acq_rel);
}

void syncAllBlocks(std::uint32_t participants, const char* api, SrcLoc loc) {
  rt::Members m;
  m.limit = participants;
  if (g_block.coresPerBlock > 1) {
    fatal(Cat::InvalidParam, api, loc, Pipe::All, kOperandNone,
          std::string(api) +
              ": the software form (with workspaces) is not emulated in mix kernels; use the hardware "
              "form SyncAll<false>() (AIC and AIV) or SyncAll() (AIV only)");
  }
  barrierAcross(m, api, loc);
}

void syncAllCores(bool aivOnly, const char* api, SrcLoc loc) {
  rt::Members m;
  m.perBlock = g_block.coresPerBlock;
  m.aivOnly = aivOnly;
  m.limit = static_cast<std::uint32_t>(g_block.blockNum);
  barrierAcross(m, api, loc);
}

}  // namespace kwb_sim
