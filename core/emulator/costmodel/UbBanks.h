// SPDX-License-Identifier: MIT
#pragma once
// Unified Buffer bank conflicts of one vector instruction, from its operands' UB addresses
// (docs/calibration.md, "UB bank conflicts"). The UB is split into banks of `rowsPerBank` rows of
// `rowBytes`; consecutive rows rotate over `groups` bank groups, and each `groups * rowsPerBank * rowBytes`
// span of the UB is the next bank of every group (910B: 16 groups x 3 banks x 128 rows x 32 B). Per repeat
// the vector unit reads or writes one row per bank group per cycle, so
//   read-read:   source DataBlocks in the same bank group are read in turn,
//   write-write: destination DataBlocks in the same bank group are written in turn,
//   read-write:  a destination block in the same bank as a source block waits for the read.
// Without per-block strides in the trace (kwb_sim/trace.h records each operand's byte hull), a repeat's
// blocks are taken as contiguous and the repeat stride as the hull divided over the repeats.

#include <cstdint>

#include "core/emulator/include/kwb_sim/trace.h"

namespace kwb::sim {

struct UbBankGeometry {
  std::uint32_t rowBytes = 0;       // bytes a bank group delivers per cycle (one DataBlock)
  std::uint32_t groups = 0;         // bank groups; 0 = no bank model for this SoC
  std::uint32_t banksPerGroup = 0;  // banks of one group
  std::uint32_t rowsPerBank = 0;    // rows of one bank
  double readWriteBeats = 0;        // cycles a read-write conflict adds to a repeat
  bool present() const { return groups > 0 && rowBytes > 0 && banksPerGroup > 0 && rowsPerBank > 0; }
};

// Conflict kinds, as bits of UbBankConflicts::kinds.
inline constexpr std::uint8_t kReadReadConflict = 1;
inline constexpr std::uint8_t kWriteWriteConflict = 2;
inline constexpr std::uint8_t kReadWriteConflict = 4;

struct UbBankConflicts {
  double beatsPerRepeat = 1;  // mean UB access cycles of one repeat (1 = no conflict)
  std::uint8_t kinds = 0;     // which conflicts occurred (k*Conflict bits)
};

// Access cycles per repeat of a vector record (pipe V, operands in UB). A record without UB operands or on
// a SoC without a bank model has beatsPerRepeat 1.
UbBankConflicts ubBankConflicts(const UbBankGeometry& geometry, const kwb_sim::Instr& in);

// "read-read", "write-write and read-write", ... for a kinds mask (empty for 0).
const char* ubBankConflictName(std::uint8_t kinds);

}  // namespace kwb::sim
