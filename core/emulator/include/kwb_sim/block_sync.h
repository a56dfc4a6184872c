// SPDX-License-Identifier: MIT
#pragma once
// Synchronisation across the blocks of a launch and the GM accesses it relies on (docs/emulator.md,
// "SyncAll"): SyncAll (hardware form, and the software form with its GM/UB workspaces), the system
// workspace pointer, WriteGmByPassDCache / ReadGmByPassDCache and DataSyncBarrier.
// Every block runs in its own process; SyncAll is a real barrier between those processes
// (runtime/BlockSync.cpp), and a block waiting for one that ended without reaching it is reported as
// the hang it would be on hardware.

#include <cstdint>
#include <cstring>
#include <string>

#include "kwb_sim/kernel_misc.h"
#include "kwb_sim/runtime.h"
#include "kwb_sim/sync.h"
#include "kwb_sim/tensor.h"

namespace kwb_sim {
// The barrier: blocks 0..participants-1 wait until all of them called it (runtime/BlockSync.cpp).
void syncAllBlocks(std::uint32_t participants, const char* api, SrcLoc loc);
// The hardware form: every block of a plain kernel; of a mix kernel every AIV (aivOnly) or every AIC and
// AIV process.
void syncAllCores(bool aivOnly, const char* api, SrcLoc loc);
// SetSysWorkspace's pointer, per block (GetSysWorkSpacePtr reads it back).
GM_ADDR& sysWorkspace();
}  // namespace kwb_sim

namespace AscendC {

// Which pipes trigger and wait in a hardware SyncAll (the API reference: MTE2, MTE3 or PIPE_ALL). The
// emulator's blocks wait with every pipe drained, which orders at least as much as any configuration.
struct SyncAllConfig {
  pipe_t triggerPipe;
  pipe_t waitPipe;
};
inline constexpr SyncAllConfig DEFAULT_SYNC_ALL_CONFIG = {PIPE_ALL, PIPE_ALL};

// Hardware form: every block of the launch; in a mix kernel isAIVOnly = true syncs its AIV cores and
// false its AIC and AIV cores (docs/emulator.md, "Mixed AIC/AIV kernels").
template <bool isAIVOnly = true, const SyncAllConfig& config = DEFAULT_SYNC_ALL_CONFIG>
void SyncAll(KWB_SIM_LOC) {
  constexpr auto allowed = [](pipe_t p) { return p == PIPE_MTE2 || p == PIPE_MTE3 || p == PIPE_ALL; };
  static_assert(
      allowed(config.triggerPipe) && allowed(config.waitPipe),
      "kwb-sim: SyncAll: SyncAllConfig's triggerPipe and waitPipe must each be PIPE_MTE2, PIPE_MTE3 "
      "or PIPE_ALL");
  kwb_sim::syncAllCores(isAIVOnly, "SyncAll", loc_);
}

// Software form: each core marks its slot in gmWorkspace and polls the others'. The reference requires
// gmWorkspace to hold at least GetBlockNum() * 32 bytes (zeroed before the first call), ubWorkspace as
// many bytes in VECIN/VECCALC/VECOUT, and usedCores (0: all blocks) at most the block count.
template <bool isAIVOnly = true>
void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
             const int32_t usedCores = 0, KWB_SIM_LOC) {
  static_assert(isAIVOnly,
                "kwb-sim: SyncAll: the software form (with workspaces) syncs vector cores only; "
                "isAIVOnly must be true");
  const auto blocks = static_cast<std::uint32_t>(GetBlockNum());
  const std::uint64_t need = std::uint64_t{blocks} * 32;
  if (usedCores < 0 || static_cast<std::uint32_t>(usedCores) > blocks) {
    kwb_sim::fatal(kwb_sim::Cat::InvalidParam, "SyncAll", loc_, kwb_sim::Pipe::All, 2,
                   "SyncAll: usedCores = " + std::to_string(usedCores) + " is outside 0.." +
                       std::to_string(blocks) + " (the launch's block count; 0 means all blocks)");
  }
  kwb_sim::checkGm(gmWorkspace.ptr_, need, gmWorkspace.lo_, gmWorkspace.hi_, "SyncAll", loc_,
                   kwb_sim::Pipe::MTE3, 0, true);
  if (ubWorkspace.position_ != TPosition::VECIN && ubWorkspace.position_ != TPosition::VECCALC &&
      ubWorkspace.position_ != TPosition::VECOUT) {
    kwb_sim::report(kwb_sim::Cat::InvalidParam, "SyncAll", loc_, kwb_sim::Pipe::All, 1,
                    "SyncAll: ubWorkspace must be a VECIN, VECCALC or VECOUT tensor");
  }
  kwb_sim::checkLocal(ubWorkspace.ref_, ubWorkspace.ubOffset(), need, "SyncAll", loc_, kwb_sim::Pipe::MTE3, 1,
                      true);
  kwb_sim::syncAllBlocks(usedCores == 0 ? blocks : static_cast<std::uint32_t>(usedCores), "SyncAll", loc_);
}

// The kernel's workspace argument as given to the launch (system part first). The emulator's library
// keeps nothing there; GetSysWorkSpacePtr returns what was set, as on a device.
inline void SetSysWorkspace(GM_ADDR workspace) {
  kwb_sim::sysWorkspace() = workspace;
}
inline GM_ADDR GetSysWorkSpacePtr() {
  return kwb_sim::sysWorkspace();
}

// Scalar GM accesses that skip the data cache (the API reference: 8- to 64-bit integers). The emulator
// has no data cache: each one is a checked, recorded GM access, visible to the other blocks at once.
template <typename T>
void WriteGmByPassDCache(__gm__ T* addr, T value, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("WriteGmByPassDCache", T, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t,
                        int64_t, uint64_t);
  if (kwb_sim::checkGm(addr, sizeof(T), 0, 0, "WriteGmByPassDCache", loc_, kwb_sim::Pipe::S, 0, true) !=
      sizeof(T))
    return;
  kwb_sim::recordScalar("WriteGmByPassDCache", loc_, kwb_sim::dtypeOf<T>(), kwb_sim::MemSpace::GM,
                        reinterpret_cast<std::uint64_t>(addr), 0, true);
  __atomic_store(kwb_sim::gmAlias(addr), &value, __ATOMIC_SEQ_CST);
}
template <typename T>
T ReadGmByPassDCache(__gm__ T* addr, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("ReadGmByPassDCache", T, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t,
                        int64_t, uint64_t);
  T value{};
  if (kwb_sim::checkGm(addr, sizeof(T), 0, 0, "ReadGmByPassDCache", loc_, kwb_sim::Pipe::S, 0, false) !=
      sizeof(T))
    return value;
  kwb_sim::recordScalar("ReadGmByPassDCache", loc_, kwb_sim::dtypeOf<T>(), kwb_sim::MemSpace::GM,
                        reinterpret_cast<std::uint64_t>(addr), 0, false);
  __atomic_load(kwb_sim::gmAlias(addr), &value, __ATOMIC_SEQ_CST);
  return value;
}

// The memory a DataSyncBarrier waits for (the API reference: ALL = GM and UB, DDR = GM, UB, SEQ).
enum class MemDsbT : uint8_t { ALL = 0, DDR = 1, UB = 2, SEQ = 3 };
// Emulated GM and UB accesses complete when their call returns, so the barrier only orders the block's
// pipes (as PipeBarrier<PIPE_ALL>) and is recorded.
template <MemDsbT arg0>
void DataSyncBarrier(KWB_SIM_LOC) {
  kwb_sim::barrier(PIPE_ALL, loc_);
}

}  // namespace AscendC

// CANN declares GetSysWorkSpacePtr at global scope too: the devkit's Matmul samples pass it to
// REGIST_MATMUL_OBJ unqualified, with no `using namespace AscendC`.
using AscendC::GetSysWorkSpacePtr;
