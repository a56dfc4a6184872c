// SPDX-License-Identifier: MIT
#pragma once
// CrossCoreSetFlag / CrossCoreWaitFlag between the processes of a launch (docs/emulator.md, "Mixed
// AIC/AIV kernels"). Every process (a block, or a mix kernel's AIC or AIV) has one counter per flag id
// (0..15 on A2/A3 for modes 0-2) in memory the parent maps MAP_SHARED before it forks. A set raises the
// counters of the cores its mode addresses (mode 0: every core of the setter's type once all of them set;
// mode 1: both AIVs of the block once both set; mode 2: AIC -> the block's AIVs, the block's AIVs (all of
// them)
// -> its AIC); a wait consumes one pending set of its own counter or sleeps on a futex. A wait no set
// can reach any more (every other process ended or sleeps in a wait itself) is reported as the hang it
// would be; sets nobody consumed are reported when the launch ends.

#include <cstdint>
#include <string>
#include <vector>

#include "KernelType.h"
#include "kwb_sim/runtime.h"

namespace kwb_sim::rt {

inline constexpr std::uint32_t kCrossCoreFlags = 16;  // flag ids 0..15 (A2/A3, modes 0-2; the API reference)
inline constexpr std::uint32_t kCrossCoreMaxPending = 15;  // sets one counter holds

// Parent: before the first fork / after the launch.
bool crossCoreCreate(std::uint32_t blockDim, const KernelLayout& layout);
void crossCoreDestroy();
// Parent: processes asleep in a CrossCoreWaitFlag (they do not count against KWB_SIM_JOBS).
std::uint32_t crossCoreWaiting();
// Parent: process `unit` was forked / reaped.
void crossCoreMarkStarted(std::uint32_t unit);
void crossCoreMarkEnded(std::uint32_t unit);
// Parent, after every process ended: one unpaired-flag line (JSON) per counter left with pending sets.
void crossCoreEndOfLaunch(std::vector<std::string>& parentLines);

}  // namespace kwb_sim::rt
