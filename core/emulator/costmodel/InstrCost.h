// SPDX-License-Identifier: MIT
#pragma once
// Durations of single trace records from the SoC tables (internal to the cost model).

#include <cstdint>
#include <string>
#include <vector>

#include "core/emulator/costmodel/SocParams.h"
#include "core/emulator/include/kwb_sim/trace.h"

namespace kwb::sim::detail {

enum class ApiKind : std::uint8_t { Other, GetValue, SetValue, MaskSet, Copy };

// Per-launch lookups keyed by LaunchTrace::strings index, built once so that costing a record never
// touches a string.
struct LaunchTables {
  std::vector<std::int16_t> vectorClass;  // class index, -1 = not in the SoC's op table
  std::vector<ApiKind> kind;
  std::vector<std::string> notes;  // APIs the tables had to guess for

  static LaunchTables build(const SocParams& soc, const kwb_sim::LaunchTrace& trace);
};

struct WorkCost {
  double cycles = 0;         // pipe occupancy (all `times` repetitions)
  double latencyCycles = 0;  // extra time until the result is visible to other pipes
  double pureCycles = 0;     // throughput part without fixed costs (roofline floor of V / M work)
  bool gm = false;           // a GM transfer competing for the shared bandwidth
  // What the transfer consumes of the chip's HBM/DDR bandwidth, in bytes: its misses in full, its L2 hits
  // at the ratio of HBM to L2 aggregate bandwidth, both divided by the alignment factor.
  double gmEquivalentBytes = 0;
  // Vector records: cycles the UB bank conflicts of the operands' placement add (part of `cycles`, not of
  // `pureCycles`: a better placement removes them), and which conflicts (UbBanks.h k*Conflict bits).
  double bankConflictCycles = 0;
  std::uint8_t bankConflictKinds = 0;
};

// Tiny direct-mapped model of the scalar DCache, for GetValue/SetValue on GM (64 B lines, 32 KB).
class DCache {
 public:
  void reset(std::uint64_t bytes, std::uint64_t line);
  bool access(std::uint64_t addr);  // true = hit; fills the line either way
 private:
  std::vector<std::uint64_t> tags_;
  std::uint64_t line_ = 64;
};

class InstrCoster {
 public:
  InstrCoster(const SocParams& soc, const LaunchTables& tables) : soc_(soc), tables_(tables) {}

  // Scalar-unit cycles to set up and issue the record (all `times` repetitions).
  double issueCycles(const kwb_sim::Instr& in) const;
  // Work on a non-scalar pipe. gmShare caps the HBM-equivalent bandwidth of GM transfers (<= 0: no cap);
  // l2Hit is the share of the record's GM bytes served from L2 (L2Model.h).
  // readers: blocks reading the record's GM lines at the same time (SameLineReaders.h), >= 1.
  WorkCost work(const kwb_sim::Instr& in, double gmShare, double l2Hit = 0, double readers = 1) const;
  // Execution cycles of a scalar (pipe S) work record.
  double scalar(const kwb_sim::Instr& in, DCache& dcache) const;

  // Transfer path of a copy record, by its memory spaces (falls back to the pipe's main path).
  Path pathOf(const kwb_sim::Instr& in) const;
  double alignFactor(const kwb_sim::Instr& in, Path path) const;

 private:
  WorkCost vectorOp(const kwb_sim::Instr& in) const;
  WorkCost transfer(const kwb_sim::Instr& in, double gmShare, double l2Hit, double readers) const;
  WorkCost cube(const kwb_sim::Instr& in) const;
  std::uint64_t touchLines(const kwb_sim::Instr& in, DCache& dcache) const;  // returns the misses

  const SocParams& soc_;
  const LaunchTables& tables_;
};

unsigned elementBytes(const kwb_sim::Instr& in);  // the wider of dst/src element sizes (>= 1)
// GM bytes a scalar GetValue/SetValue record covers: `times` contiguous elements (trace.h).
std::uint64_t scalarGmExtent(const kwb_sim::Instr& in);

}  // namespace kwb::sim::detail
