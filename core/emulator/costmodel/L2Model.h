// SPDX-License-Identifier: MIT
#pragma once
// The SoC's L2 cache as the cost model sees it (internal): which share of each GM transfer's bytes is
// served from L2 rather than HBM/DDR (docs/emulator.md, "L2").
//
// Measurements (msprof op, benchmark loops) time a kernel launched many times in a row, so the model
// takes the steady state: the launch's GM accesses are replayed twice through an LRU cache of the SoC's
// L2 size, blocks interleaved in lockstep (every core at the same fraction of its trace), and the second
// replay's hits are counted. A launch whose footprint fits in L2 is served from L2; one that streams more
// than L2 holds misses; re-reading a part that fits (the devkit's L2-reuse example) hits.

#include <cstddef>
#include <cstdint>
#include <list>
#include <unordered_map>
#include <vector>

#include "core/emulator/costmodel/SocParams.h"
#include "core/emulator/include/kwb_sim/trace.h"

namespace kwb::sim::detail {

// hit[blockOffset[b] + k] = share (0..1) of record k of block b's GM bytes found in L2; 0 for records
// without GM traffic or when the SoC file gives no L2. blockOffset holds one entry per block plus the total.
std::vector<float> l2HitShares(const SocParams& soc, const kwb_sim::LaunchTrace& trace,
                               const std::vector<std::size_t>& blockOffset);

// LRU of 4 KB GM chunks, each remembering which of its 128 B lines are present: a new line of a resident
// chunk is still a miss, so streaming short bursts through a chunk does not count as reuse.
class L2Lru {
 public:
  static constexpr std::uint64_t kChunkBytes = 4096;
  static constexpr std::uint64_t kLineBytes = 128;

  explicit L2Lru(std::uint64_t capacityBytes);
  // Touches [addr, addr + len); adds the lines touched and those already present to the counters.
  void touch(std::uint64_t addr, std::uint64_t len, std::uint64_t& lines, std::uint64_t& hits);

 private:
  struct Entry {
    std::uint32_t present = 0;  // bit i: line i of the chunk is in L2
    std::list<std::uint64_t>::iterator pos;
  };
  std::size_t capacityChunks_;
  std::list<std::uint64_t> order_;  // most recent first
  std::unordered_map<std::uint64_t, Entry> chunks_;
};

}  // namespace kwb::sim::detail
