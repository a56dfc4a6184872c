// SPDX-License-Identifier: MIT
#pragma once
// The block processes of a launch (docs/emulator.md, "Speed"): a pool of forked workers, at most
// KWB_SIM_JOBS of them awake, each running blocks one after another in one process, so a launch pays
// for a handful of forks instead of one per block. A worker starts every block as the fork gave it (UB/L1
// zeroed, per-block checker state fresh, BlockState as at the launch); a crash, abort or timeout ends
// the worker and is the block's, as it was with one process per block, and the next block goes to
// another worker.

#include <cstdint>
#include <string>

#include "KernelType.h"
#include "LaunchReport.h"

namespace kwb_sim::rt {

struct PoolLaunch {
  KernelThunk thunk = nullptr;
  void* ctx = nullptr;
  std::string workDir;
  std::uint32_t blockDim = 0;
  KernelLayout layout;
  long jobs = 1;                   // processes awake at once (KWB_SIM_JOBS)
  long timeoutMs = 0;              // per block, from its start (KWB_SIM_BLOCK_TIMEOUT_MS)
  long perProcess = 0;             // blocks one worker runs at most (KWB_SIM_BLOCKS_PER_PROCESS; 0: no limit)
  void (*enterBlock)() = nullptr;  // in the worker, after beginBlock: crash handlers
};

// Runs every process unit of the launch and fills res.blocks (status, signal, elapsed time).
void runPool(const PoolLaunch& launch, LaunchResult& res);

// "SIGSEGV" etc. for block statuses and crash messages.
const char* signalName(int sig);

// A block about to sleep in SyncAll or CrossCoreWaitFlag tells the parent, which may then start a
// worker for the blocks it waits for (asleep blocks do not count against KWB_SIM_JOBS).
void poolNoteAsleep();

}  // namespace kwb_sim::rt
