// SPDX-License-Identifier: MIT
#pragma once
// SyncAll across the blocks of one launch (docs/emulator.md, "SyncAll"). Every block is its own process
// (Launch.cpp), so the barrier lives in memory the parent maps MAP_SHARED before it forks: a counter of
// arrivals, a generation number the waiters sleep on (futex), and one slot per block. The parent marks a
// block as ended when it reaps it; a block waiting in a SyncAll that some ended block can no longer reach
// would wait forever on hardware, so the waiter reports that hang and stops instead.

#include <cstdint>

#include "kwb_sim/runtime.h"

namespace kwb_sim::rt {

// Parent, before the first fork of a launch: a fresh barrier for `blockDim` blocks (false: no shared
// memory, SyncAll then reports that it cannot run).
bool blockSyncCreate(std::uint32_t blockDim);
// Parent, after the launch: unmaps it.
void blockSyncDestroy();
// Parent: how many blocks sleep in a SyncAll right now. They do not count against KWB_SIM_JOBS, so the
// blocks they wait for can start.
std::uint32_t blockSyncWaiting();
// Parent: block `block` has ended (any way); waiters that needed it are woken to report the hang.
void blockSyncMarkEnded(std::uint32_t block);

}  // namespace kwb_sim::rt
