// SPDX-License-Identifier: MIT
#pragma once
// Accumulating writes into GM under the block's SetAtomicAdd/Max/Min mode (docs/emulator.md, "Atomic
// accumulation"): shared by the UB->GM DataCopy and the L0C->GM Fixpipe.

#include <cstdint>

namespace kwb_sim::rt {

// Combines n bytes at s into GM at d element by element with the mode and element type of the last
// SetAtomic* call of this block.
void gmAccumulate(std::uint8_t* d, const std::uint8_t* s, std::uint64_t n);

}  // namespace kwb_sim::rt
