// SPDX-License-Identifier: MIT
#pragma once
// Cross-core synchronisation of the split architecture (A2/A3): CrossCoreSetFlag<modeId, pipe>(flagId)
// and CrossCoreWaitFlag(flagId), real signalling between the launch's processes (runtime/CrossCore.cpp,
// docs/emulator.md "Mixed AIC/AIV kernels").

#include <cstdint>

#include "kwb_sim/base.h"
#include "kwb_sim/types.h"

namespace kwb_sim {
void crossCoreSet(int mode, Pipe pipe, std::int64_t flagId, SrcLoc loc);
void crossCoreWait(int mode, Pipe pipe, std::int64_t flagId, SrcLoc loc);
// Dependent on the call's template arguments, so that only a use on another architecture fails.
template <auto...>
inline constexpr bool kSplitArchitecture = KWB_SIM_ARCH == 2201;
}  // namespace kwb_sim

namespace AscendC {

template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(int64_t flagId, KWB_SIM_LOC) {
  static_assert(kwb_sim::kSplitArchitecture<modeId, pipe>,
                "kwb-sim: CrossCoreSetFlag exists on the split architecture (A2/A3, dav-2201) only");
  static_assert(modeId <= 2, "kwb-sim: CrossCoreSetFlag: modeId must be 0, 1 or 2 on A2/A3");
  kwb_sim::crossCoreSet(modeId, kwb_sim::toPipe(pipe), flagId, loc_);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(int64_t flagId, KWB_SIM_LOC) {
  static_assert(kwb_sim::kSplitArchitecture<modeId, pipe>,
                "kwb-sim: CrossCoreWaitFlag exists on the split architecture (A2/A3, dav-2201) only");
  static_assert(modeId <= 2, "kwb-sim: CrossCoreWaitFlag: modeId must be 0, 1 or 2 on A2/A3");
  kwb_sim::crossCoreWait(modeId, kwb_sim::toPipe(pipe), flagId, loc_);
}

}  // namespace AscendC
