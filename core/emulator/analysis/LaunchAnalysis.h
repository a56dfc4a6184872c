// SPDX-License-Identifier: MIT
#pragma once
// Analyses of one launch's records that both sides run: the emulator runtime (for `kwb sim build`
// programs run by hand, which write their own report) and the trusted side of `kwb eval`
// (core/toolchain/TrustedLaunch.cpp), which recomputes everything from the raw records because the
// candidate's process may have lied in its own report. Pure functions over bytes and traces; the
// parser treats its input as hostile (every size checked, nothing trusted to be well formed).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/emulator/include/kwb_sim/trace.h"

namespace kwb::sim {

using kwb_sim::BlockTrace;
using kwb_sim::LaunchTrace;

// Parses one block's trace (records::kTraceMagic header: instruction count, dropped count, string
// count << 1 | complete, then the strings and the Instr array) and appends its strings to `lt`. False
// with `error` when the bytes are not a trace; a trace cut short is kept with complete = false.
bool parseTrace(std::string_view bytes, LaunchTrace& lt, BlockTrace& bt, std::string& error);

// multicore-overlap diagnostics (runtime JSON-line shape) for GM bytes two blocks both write.
void checkOverlap(const LaunchTrace& lt, std::vector<nlohmann::json>& out);

struct GmRange {
  std::uint64_t lo = 0, hi = 0;  // [lo, hi) host addresses
};
// Every GM byte range any block of the launch wrote (copies to GM, atomic accumulations, scalar
// SetValue and raw stores), merged and sorted.
std::vector<GmRange> gmWrites(const LaunchTrace& lt);
// The same per block (lt.blocks order), each merged and sorted: the slices each block really wrote.
std::vector<std::vector<GmRange>> gmWritesByBlock(const LaunchTrace& lt);

}  // namespace kwb::sim
