// SPDX-License-Identifier: MIT
#pragma once
// Intra-core synchronisation (PipeBarrier, SetFlag/WaitFlag with HardEvent ids) and the vector mask
// register (SetMaskCount/SetMaskNorm/SetVectorMask/ResetMask). All are checked and traced.

#include <cstdint>

#include "kwb_sim/runtime.h"

namespace kwb_sim {
void flagSet(AscendC::HardEvent evt, int id, SrcLoc loc);
void flagWait(AscendC::HardEvent evt, int id, SrcLoc loc);
void barrier(pipe_t pipe, SrcLoc loc);
// The CCE spelling set_flag(src pipe, dst pipe, event id) / wait_flag: the pipe pair names the HardEvent
// (runtime/LowLevelSync.cpp); a pair no HardEvent exists for is an invalid-param.
void flagSetPipes(pipe_t src, pipe_t dst, int id, SrcLoc loc);
void flagWaitPipes(pipe_t src, pipe_t dst, int id, SrcLoc loc);
void maskSetCounter(bool counter, SrcLoc loc);
void maskSet(std::uint64_t high, std::uint64_t low, bool counterCall, std::uint32_t esize, SrcLoc loc);
void maskReset(SrcLoc loc);
}  // namespace kwb_sim

namespace AscendC {

template <pipe_t pipe>
void PipeBarrier(KWB_SIM_LOC) {
  kwb_sim::barrier(pipe, loc_);
}
// Older spelling.
template <pipe_t pipe>
void pipe_barrier_t(KWB_SIM_LOC) {
  kwb_sim::barrier(pipe, loc_);
}

template <HardEvent event>
void SetFlag(int32_t eventID, KWB_SIM_LOC) {
  kwb_sim::flagSet(event, eventID, loc_);
}
template <HardEvent event>
void WaitFlag(int32_t eventID, KWB_SIM_LOC) {
  kwb_sim::flagWait(event, eventID, loc_);
}

inline void SetMaskCount(KWB_SIM_LOC) {
  kwb_sim::maskSetCounter(true, loc_);
}
inline void SetMaskNorm(KWB_SIM_LOC) {
  kwb_sim::maskSetCounter(false, loc_);
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(uint64_t maskHigh, uint64_t maskLow, KWB_SIM_LOC) {
  kwb_sim::maskSet(maskHigh, maskLow, false, sizeof(T), loc_);
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(int32_t len, KWB_SIM_LOC) {
  kwb_sim::maskSet(0, static_cast<uint64_t>(len), true, sizeof(T), loc_);
}
inline void ResetMask(KWB_SIM_LOC) {
  kwb_sim::maskReset(loc_);
}
// The mask argument of a call with isSetMask = false, which takes its mask from the register set
// above: a placeholder the call ignores (the API reference's mask-operation guide).
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

}  // namespace AscendC

namespace kwb_sim {
void atomicSet(AtomicOp op, DType dt, const char* api, SrcLoc loc);
}  // namespace kwb_sim

namespace AscendC {

// InitSocState: the AI Core's global state back to its defaults, as the devkit's samples do first in a
// kernel: no atomic accumulation, the mask in normal mode and all ones (the vector core's part; the
// emulator runs every block on the vector model).
inline void InitSocState(KWB_SIM_LOC) {
  kwb_sim::atomicSet(kwb_sim::AtomicOp::None, kwb_sim::DType::None, "InitSocState", loc_);
  kwb_sim::maskSetCounter(false, loc_);
  kwb_sim::maskReset(loc_);
}

}  // namespace AscendC

// The raw CCE spellings some samples use.
inline void pipe_barrier(pipe_t pipe, KWB_SIM_LOC) {
  kwb_sim::barrier(pipe, loc_);
}
inline void set_flag(pipe_t pipe, pipe_t tpipe, int eventId, KWB_SIM_LOC) {
  kwb_sim::flagSetPipes(pipe, tpipe, eventId, loc_);
}
inline void wait_flag(pipe_t pipe, pipe_t tpipe, int eventId, KWB_SIM_LOC) {
  kwb_sim::flagWaitPipes(pipe, tpipe, eventId, loc_);
}
