// SPDX-License-Identifier: MIT
#pragma once
// One block's timeline on one core (internal to the cost model): in-order pipes fed by the scalar unit,
// with the program's synchronisation as the only cross-pipe ordering besides auto-sync.

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/emulator/costmodel/CostModel.h"
#include "core/emulator/costmodel/InstrCost.h"

namespace kwb::sim::detail {

struct BlockRun {
  double end = 0;  // cycles from block start until every pipe and the scalar unit are done
  std::array<double, kPipes> busy{};
  std::array<double, kPipes> wait{};
  double gmBusy = 0;        // cycles GM transfers occupied their pipes (shared-bandwidth demand)
  double gmEquivalent = 0;  // HBM-equivalent bytes of the GM transfers (WorkCost::gmEquivalentBytes)
  double vectorPure = 0;    // throughput-only vector cycles (roofline)
  double cubePure = 0;
  std::uint64_t gmToUb = 0, ubToGm = 0, gmRead = 0, gmWrite = 0, mte2Bytes = 0, mte3Bytes = 0;
};

// Ready times keyed by a sync id: dense for the small ids real programs use, hashed beyond.
class ReadyTable {
 public:
  void reset(std::size_t denseSize);
  void set(std::int64_t key, double t, std::uint32_t from);
  bool get(std::int64_t key, double& t, std::uint32_t& from) const;

 private:
  struct Slot {
    double t = -1;
    std::uint32_t from = 0;
  };
  std::vector<Slot> dense_;
  std::unordered_map<std::int64_t, Slot> sparse_;
};

class BlockTimeline {
 public:
  BlockTimeline(const SocParams& soc, const LaunchTables& tables, const SimOptions& options);

  // Runs one block. timings (if not null) receives one entry per record; flows (if not null) gets the
  // sync hand-offs, tagged with blockIndex. gmShare caps per-transfer GM bandwidth (<= 0: no cap);
  // l2Hit (if not null) holds each record's L2-resident share of its GM bytes, sameLineReaders (if not
  // null) the blocks reading its GM lines at the same time.
  // releaseAt (if not null) holds per record the cycle, from this block's start, before which a
  // CrossCoreWaitFlag cannot return (the matched set on another core, CostModel.cpp); < 0 where unknown.
  BlockRun run(const kwb_sim::BlockTrace& block, double gmShare, InstrTiming* timings,
               std::vector<FlowLink>* flows, std::uint32_t blockIndex, const float* l2Hit = nullptr,
               const float* sameLineReaders = nullptr, const double* releaseAt = nullptr);

 private:
  struct Access {
    std::uint64_t lo = 0, hi = 0;
    double done = 0;
    kwb_sim::MemSpace space = kwb_sim::MemSpace::None;
    bool write = false;
  };
  void remember(kwb_sim::MemSpace space, std::uint64_t lo, std::uint64_t len, bool write, double done);
  double conflictReady(kwb_sim::MemSpace space, std::uint64_t lo, std::uint64_t len, bool write) const;
  void rememberWork(const kwb_sim::Instr& in, double done);

  const SocParams& soc_;
  const SimOptions& options_;
  InstrCoster coster_;
  DCache dcache_;
  ReadyTable flags_, enq_, freed_;
  std::vector<double> queueRing_;  // per pipe: start times of the last `depth` instructions
  static constexpr std::size_t kAccessRing = 64;
  std::array<Access, kAccessRing> accesses_{};
  std::size_t accessCount_ = 0;
};

}  // namespace kwb::sim::detail
