// SPDX-License-Identifier: MIT
#pragma once
// Same-address serialisation (internal to the cost model; docs/calibration.md, "Same-address reads"):
// how many blocks read the same GM address range at the same time. The devkit's 2201 hardware constraints
// say that accesses of many cores to one GM address are serialised, and its best-practice guide that GM
// requests are handled in 512 B-aligned units, so that different addresses within one 512 B range count
// as the same address; its data_copy example measures all 48 (24) cores reading one matrix in the same
// order 1.64x (1.26x) slower than in staggered order.
//
// Concurrency is judged in lockstep, as the L2 model does (L2Model.h): the k-th GM read of every block
// (its position scaled to the longest block's count of GM reads) falls into window k, and a record's
// readers are the mean, over the granules (SocParams::sameAddressGranuleBytes) it reads, of the distinct
// blocks reading that granule in its window. Blocks reading disjoint data get 1; every block reading the
// same tile at once gets blockDim.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/emulator/include/kwb_sim/trace.h"

namespace kwb::sim::detail {

// readers[blockOffset[b] + k] = concurrent readers (>= 1) of record k of block b's GM lines; 1 for
// records without a GM read. blockOffset holds one entry per block plus the total.
std::vector<float> sameLineReaders(const kwb_sim::LaunchTrace& trace,
                                   const std::vector<std::size_t>& blockOffset, std::uint64_t granuleBytes);

// Share (0..1) of the launch's GM read bytes (by granule) that more than one block reads at some
// time of the launch, together or not: the kernels whose same-address behaviour depends on how the
// blocks drift, which the lockstep count above cannot see (docs/calibration.md, "Same-address reads").
double sharedReadShare(const kwb_sim::LaunchTrace& trace, std::uint64_t granuleBytes);

}  // namespace kwb::sim::detail
