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
// IBWait's wait: until the flag (runtime alias of its GM word) reads 1; a hang (block `setter` ended
// without setting it) is reported at `loc` (runtime/BlockSync.cpp).
void ibWaitFlag(const std::int32_t* flagAlias, std::uint32_t setter, std::int32_t eventID, const char* api,
                SrcLoc loc);
// WaitPreBlock / NotifyNextBlock (runtime/BlockSync.cpp): the k-th wait of block b returns once block b-1
// notified k+1 times (block 0: once the last block notified k times), so the blocks take turns in
// ascending order, round after round; a wait whose block ended without its notify is reported at `loc`.
void determineWait(std::uint32_t round, const char* api, SrcLoc loc);
void determineNotify(const char* api, SrcLoc loc);
// IBSet/IBWait's common checks; the flag's kernel-view address, or nullptr when a check failed.
template <typename T>
__gm__ std::int32_t* ibFlag(const AscendC::GlobalTensor<T>& gm, const AscendC::LocalTensor<T>& ub,
                            std::int32_t blockIdx, std::int32_t eventID, bool aivOnly, const char* api,
                            SrcLoc loc);
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

// Inter-block flags (the API reference, "IBSet"/"IBWait"): IBSet writes 1 into the 32-byte slot of
// (blockIdx, eventID) of gmWorkspace, at byte (eventID * cores + blockIdx) * 32 (cores: GetBlockNum(),
// twice that in a mix kernel, which the reference's minimum size implies); IBWait reads that slot until
// it is 1. Both take the same gmWorkspace, blockIdx (the waited block, 0..cores-1) and eventID, a UB
// workspace of at least 32 bytes in VECIN/VECCALC/VECOUT, and drain the block's pipes first. The slot
// must be zeroed before the launch (not checkable). A wait whose setter ended without IBSet is reported
// as the hang it is on hardware.
template <bool isAIVOnly = true, typename T>
void IBSet(const GlobalTensor<T>& gmWorkspace, const LocalTensor<T>& ubWorkspace, int32_t blockIdx,
           int32_t eventID, KWB_SIM_LOC) {
  __gm__ std::int32_t* flag =
      kwb_sim::ibFlag(gmWorkspace, ubWorkspace, blockIdx, eventID, isAIVOnly, "IBSet", loc_);
  if (flag == nullptr) return;
  kwb_sim::barrier(PIPE_ALL, loc_);
  kwb_sim::recordScalar("IBSet", loc_, kwb_sim::DType::I32, kwb_sim::MemSpace::GM,
                        reinterpret_cast<std::uint64_t>(flag), 0, true);
  const std::int32_t one = 1;
  __atomic_store(kwb_sim::gmAlias(flag), &one, __ATOMIC_SEQ_CST);
}
template <bool isAIVOnly = true, typename T>
void IBWait(const GlobalTensor<T>& gmWorkspace, const LocalTensor<T>& ubWorkspace, int32_t blockIdx,
            int32_t eventID, KWB_SIM_LOC) {
  __gm__ std::int32_t* flag =
      kwb_sim::ibFlag(gmWorkspace, ubWorkspace, blockIdx, eventID, isAIVOnly, "IBWait", loc_);
  if (flag == nullptr) return;
  kwb_sim::barrier(PIPE_ALL, loc_);
  kwb_sim::recordScalar("IBWait", loc_, kwb_sim::DType::I32, kwb_sim::MemSpace::GM,
                        reinterpret_cast<std::uint64_t>(flag), 0, false);
  kwb_sim::ibWaitFlag(kwb_sim::gmAlias(flag), static_cast<std::uint32_t>(blockIdx), eventID, "IBWait", loc_);
}

// Blocks in ascending order (the API reference, "InitDetermineComputeWorkspace", "WaitPreBlock",
// "NotifyNextBlock"): after InitDetermineComputeWorkspace, each WaitPreBlock returns when the previous block
// (for block 0: the last block, one round earlier) has called NotifyNextBlock as often, so the blocks run
// the section between the two in the order 0, 1, ..., n-1, round after round (deterministic atomic
// accumulation). All three check gmWorkspace >= GetBlockNum() * 32 bytes in device memory and ubWorkspace
// >= GetBlockNum() * 32 + 32 bytes in VECIN/VECCALC/VECOUT; a wait or notify before the block's Init is
// refused. The turn-taking is kept in the launch's shared region (as SyncAll's), not in gmWorkspace, whose
// contents the reference leaves to the library. Costed as a PipeBarrier<PIPE_ALL> each.
template <typename T>
bool determineChecks(const GlobalTensor<T>& gm, const LocalTensor<T>& ub, const char* api,
                     kwb_sim::SrcLoc loc) {
  const auto blocks = static_cast<std::uint64_t>(GetBlockNum());
  if (ub.position_ != TPosition::VECIN && ub.position_ != TPosition::VECCALC &&
      ub.position_ != TPosition::VECOUT) {
    kwb_sim::report(kwb_sim::Cat::InvalidParam, api, loc, kwb_sim::Pipe::All, 1,
                    std::string(api) + ": ubWorkspace must be a VECIN, VECCALC or VECOUT tensor");
    return false;
  }
  if (kwb_sim::checkGm(gm.ptr_, blocks * 32, gm.lo_, gm.hi_, api, loc, kwb_sim::Pipe::MTE3, 0, true) !=
      blocks * 32)
    return false;
  return kwb_sim::checkLocal(ub.ref_, ub.ubOffset(), blocks * 32 + 32, api, loc, kwb_sim::Pipe::MTE3, 1,
                             true);
}
template <typename T>
void InitDetermineComputeWorkspace(const GlobalTensor<T>& gmWorkspace, const LocalTensor<T>& ubWorkspace,
                                   KWB_SIM_LOC) {
  if (!determineChecks(gmWorkspace, ubWorkspace, "InitDetermineComputeWorkspace", loc_)) return;
  kwb_sim::barrier(PIPE_ALL, loc_);
  kwb_sim::g_block.determineInit = true;
  kwb_sim::g_block.determineWaits = 0;
}
template <typename T>
void WaitPreBlock(const GlobalTensor<T>& gmWorkspace, const LocalTensor<T>& ubWorkspace, KWB_SIM_LOC) {
  if (!determineChecks(gmWorkspace, ubWorkspace, "WaitPreBlock", loc_)) return;
  if (!kwb_sim::g_block.determineInit) {
    kwb_sim::report(kwb_sim::Cat::InvalidParam, "WaitPreBlock", loc_, kwb_sim::Pipe::All, -1,
                    "WaitPreBlock before InitDetermineComputeWorkspace in this block: call "
                    "InitDetermineComputeWorkspace(gmWorkspace, ubWorkspace) first (it does not wait)");
    return;
  }
  kwb_sim::barrier(PIPE_ALL, loc_);
  kwb_sim::determineWait(kwb_sim::g_block.determineWaits++, "WaitPreBlock", loc_);
}
template <typename T>
void NotifyNextBlock(const GlobalTensor<T>& gmWorkspace, const LocalTensor<T>& ubWorkspace, KWB_SIM_LOC) {
  if (!determineChecks(gmWorkspace, ubWorkspace, "NotifyNextBlock", loc_)) return;
  if (!kwb_sim::g_block.determineInit) {
    kwb_sim::report(kwb_sim::Cat::InvalidParam, "NotifyNextBlock", loc_, kwb_sim::Pipe::All, -1,
                    "NotifyNextBlock before InitDetermineComputeWorkspace in this block: call "
                    "InitDetermineComputeWorkspace(gmWorkspace, ubWorkspace) first (it does not notify)");
    return;
  }
  kwb_sim::barrier(PIPE_ALL, loc_);
  kwb_sim::determineNotify("NotifyNextBlock", loc_);
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

namespace kwb_sim {
template <typename T>
__gm__ std::int32_t* ibFlag(const AscendC::GlobalTensor<T>& gm, const AscendC::LocalTensor<T>& ub,
                            std::int32_t blockIdx, std::int32_t eventID, bool aivOnly, const char* api,
                            SrcLoc loc) {
  using AscendC::TPosition;
  const auto blocks = static_cast<std::int64_t>(AscendC::GetBlockNum());
  const std::int64_t cores = aivOnly ? blocks : 2 * blocks;
  if (blockIdx < 0 || blockIdx >= cores) {
    report(Cat::InvalidParam, api, loc, Pipe::All, 2,
           std::string(api) + ": blockIdx = " + std::to_string(blockIdx) + " is outside 0.." +
               std::to_string(cores - 1) + " (the index of the block that IBSet marks and IBWait waits for)");
    return nullptr;
  }
  if (eventID < 0) {
    report(Cat::InvalidParam, api, loc, Pipe::All, 3,
           std::string(api) + ": eventID = " + std::to_string(eventID) + " is negative");
    return nullptr;
  }
  if (ub.position_ != TPosition::VECIN && ub.position_ != TPosition::VECCALC &&
      ub.position_ != TPosition::VECOUT) {
    report(Cat::InvalidParam, api, loc, Pipe::All, 1,
           std::string(api) + ": ubWorkspace must be a VECIN, VECCALC or VECOUT tensor");
    return nullptr;
  }
  if (!checkLocal(ub.ref_, ub.ubOffset(), 32, api, loc, Pipe::MTE3, 1, true)) return nullptr;
  const std::uint64_t offset = (static_cast<std::uint64_t>(eventID) * static_cast<std::uint64_t>(cores) +
                                static_cast<std::uint64_t>(blockIdx)) *
                               32;
  auto* base = reinterpret_cast<__gm__ std::uint8_t*>(gm.ptr_);
  if (checkGm(base + offset, 32, gm.lo_, gm.hi_, api, loc, Pipe::MTE3, 0, true) != 32) return nullptr;
  return reinterpret_cast<__gm__ std::int32_t*>(base + offset);
}
}  // namespace kwb_sim

// CANN declares GetSysWorkSpacePtr at global scope too: the devkit's Matmul samples pass it to
// REGIST_MATMUL_OBJ unqualified, with no `using namespace AscendC`.
using AscendC::GetSysWorkSpacePtr;
