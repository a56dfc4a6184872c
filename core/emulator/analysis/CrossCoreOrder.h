// SPDX-License-Identifier: MIT
#pragma once
// Happens-before between the processes (blocks, or a mix kernel's AIC and AIV sub-cores) of one launch,
// replayed from their records: which CrossCoreSetFlag released which CrossCoreWaitFlag, which IBSet an
// IBWait saw (a GM flag word one process sets: the wait follows its first set), and which SyncAll
// calls met in one barrier (docs/emulator.md, "Ordering between cores"). The overlap check uses it so that
// two cores writing the same GM bytes one after the other, with a flag or barrier between them, are not a
// race, while the same writes with nothing ordering them are.
//
// Every process's instructions are cut into segments by its ordering events (a set, a wait, a SyncAll);
// segment s holds what the process issued after its s-th event. A vector clock per segment says how many
// segments of every other process are known to be finished when it starts.
//
// Soundness: the replay never claims an order the run may not have had. A wait consumes the k-th raise of
// its counter only when a single kind of set (one mode, one setter group) ever raises that counter; a
// counter raised from two sources orders nothing (which set a wait took is not in the records). A
// replay that cannot proceed (a hang, a trace cut short) lets the stuck process go on without an order.
// The records are written by the candidate's process: a forged set can hide an overlap diagnostic, never
// change a verdict (the verifier compares the outputs).

#include <cstdint>
#include <vector>

#include "core/emulator/include/kwb_sim/trace.h"

namespace kwb::sim {

// True for the records that cut a process's trace into segments.
bool isOrderingEvent(const kwb_sim::LaunchTrace& lt, const kwb_sim::Instr& i);
// True when the launch has anything beyond plain-kernel SyncAll epochs to order: a cross-core flag, or
// several sub-cores per block.
bool needsCrossCoreOrder(const kwb_sim::LaunchTrace& lt);

// One CrossCoreSetFlag record: its process and its index in that process's records.
struct SetRecord {
  std::uint32_t proc = 0;
  std::uint32_t record = 0;
};
// A CrossCoreWaitFlag the replay matched to the raise that released it, and the sets that made that raise
// (all of them must have happened). Waits on a counter two kinds of set raise are not listed.
struct FlagRelease {
  std::uint32_t proc = 0;
  std::uint32_t record = 0;
  std::vector<SetRecord> sets;
};
// Every matched wait of the launch, for the cost model's timing of cross-core waits.
std::vector<FlagRelease> flagReleases(const kwb_sim::LaunchTrace& lt);

class CrossCoreOrder {
 public:
  // `segments[p]`: the segments of process p whose order is asked for later (sorted, unique). Returns an
  // order that knows nothing (every pair unordered) when the clocks would exceed `maxEntries` numbers.
  static CrossCoreOrder replay(const kwb_sim::LaunchTrace& lt,
                               const std::vector<std::vector<std::uint32_t>>& segments,
                               std::uint64_t maxEntries = std::uint64_t{1} << 25);

  // Whether segment sa of process pa is finished before segment sb of process pb starts, or the reverse.
  bool ordered(std::uint32_t pa, std::uint32_t sa, std::uint32_t pb, std::uint32_t sb) const;
  bool known() const { return known_; }

 private:
  // Clock of (process, segment): procs_ numbers at clocks_[slot * procs_], slot from slotOf_.
  const std::uint32_t* clock(std::uint32_t p, std::uint32_t s) const;
  bool happensBefore(std::uint32_t pa, std::uint32_t sa, std::uint32_t pb, std::uint32_t sb) const;

  bool known_ = false;
  std::uint32_t procs_ = 0;
  std::vector<std::vector<std::uint32_t>> segments_;  // as given, per process
  std::vector<std::vector<std::uint32_t>> slotOf_;    // parallel to segments_
  std::vector<std::uint32_t> clocks_;
};

}  // namespace kwb::sim
