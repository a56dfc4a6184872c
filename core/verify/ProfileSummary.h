// SPDX-License-Identifier: MIT
#pragma once
// One profile for a whole evaluation, built from the profiles of every verification case, and a
// memory floor that does not depend on what the kernel chose to move.
//
// Why: profiling only the first case let a kernel that is fast on the first shape and slow on the
// others report the fast number, and a trace-derived floor (bytes the kernel actually moved) shrinks
// when the kernel skips work. Pure functions, no I/O: the Evaluator collects the per-case profile
// objects and calls summarizeProfiles once at the end.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kwb::sim {
struct SocParams;
}

namespace kwb::verify {

struct PreparedCase;

// GM (HBM/DDR) bandwidth of the whole chip, as the cost model uses it.
struct GmBandwidth {
  double bytesPerCycle = 0.0;  // SocParams::gmAggregateBytesPerCycle
  double clockMhz = 0.0;       // SocParams::clockMhz
};
GmBandwidth gmBandwidthOf(const sim::SocParams& soc);

// Lower bound in microseconds for moving bytesRead + bytesWritten through GM at the chip's aggregate
// bandwidth: (read + written) / (bytesPerCycle * clockMhz). 0 when the bandwidth is unknown (<= 0).
double floorUsFromTensorBytes(std::uint64_t bytesRead, std::uint64_t bytesWritten, const GmBandwidth& bw);

// Bytes a kernel must move at least: every input tensor read once, every output tensor written once
// (every output element of the built-in tasks depends on all of its inputs' elements).
struct TensorBytes {
  std::uint64_t read = 0;
  std::uint64_t written = 0;
};
TensorBytes tensorBytesOf(const PreparedCase& c);

struct CaseProfile {
  std::string name;                     // the verification case
  nlohmann::json profile;               // the backend's profile object for the case; null when none
  std::optional<double> tensorFloorUs;  // floorUsFromTensorBytes for the case's tensors, when known
};

// Summary profile (same shape as one case's profile, so ProfileReport readers and the GUI's charts
// keep working), with:
//   total_us       = sum of the cases' total_us (task_duration_us for msprof profiles)
//   total_cycles, kernel_cycles, launch_overhead_cycles, gm_read_bytes, gm_write_bytes,
//   gm_to_ub_bytes, ub_to_gm_bytes = sums (dropped when some case lacks the field)
//   floor_us       = sum over cases of max(case floor_us, case tensorFloorUs); dropped when a case has
//                    neither. floor.memory_us likewise with the tensor floor; floor.vector_us and
//                    floor.cube_us summed
//   floor_ratio    = floor_us / total_us; achieved_gbps = (gm_read_bytes + gm_write_bytes) / total_us
//   slowest_case   = {name, total_us}
//   cases          = [{name, total_us, floor_us}] in the given order (null when a case had no profile)
//   complete       = every case had a profile
//   details_case   = the case whose per-run details are kept
// Everything else (pipes, blocks, lines, bound, block_dim, waves, soc, kernel, ...) is the slowest
// case's own: pipe ratios and block timelines of different shapes do not add up to anything that
// happened, and the slowest case is the one worth optimising. Null when no case has a profile.
nlohmann::json summarizeProfiles(const std::vector<CaseProfile>& cases);

}  // namespace kwb::verify
