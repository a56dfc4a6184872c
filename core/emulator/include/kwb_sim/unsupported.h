// SPDX-License-Identifier: MIT
#pragma once
// Ascend C APIs the emulator knows by name but does not implement. Using one fails at COMPILE time with
// "kwb-sim: unsupported-api: <Name> ..." (category unsupported-api), never silently at run time.

#include "kwb_sim/base.h"
#include "kwb_sim/types.h"

namespace kwb_sim {
template <typename... A>
inline constexpr bool kAlwaysFalsePack = false;
}  // namespace kwb_sim

#define KWB_SIM_UNSUPPORTED_FN(NAME)                                                                  \
  template <typename... KwbT, typename... KwbA>                                                       \
  void NAME(KwbA&&...) {                                                                              \
    static_assert(::kwb_sim::kAlwaysFalsePack<KwbT..., KwbA...>, KWB_SIM_UNSUPPORTED_API_MSG(#NAME)); \
  }

namespace AscendC {

// Cube path forms not emulated yet (the basic ones are in cube.h).
KWB_SIM_UNSUPPORTED_FN(LoadDataWithTranspose)
KWB_SIM_UNSUPPORTED_FN(InitConstValue)
// Vector APIs not emulated yet.
KWB_SIM_UNSUPPORTED_FN(MrgSort4)
KWB_SIM_UNSUPPORTED_FN(TransDataTo5HD)
KWB_SIM_UNSUPPORTED_FN(AddRelu)
KWB_SIM_UNSUPPORTED_FN(SubRelu)
KWB_SIM_UNSUPPORTED_FN(CreateVecIndex)
KWB_SIM_UNSUPPORTED_FN(ProposalConcat)
KWB_SIM_UNSUPPORTED_FN(ProposalExtract)
// Math library (lib/) functions.
KWB_SIM_UNSUPPORTED_FN(SoftmaxFlash)
KWB_SIM_UNSUPPORTED_FN(Power)
KWB_SIM_UNSUPPORTED_FN(Erf)
KWB_SIM_UNSUPPORTED_FN(Sin)
KWB_SIM_UNSUPPORTED_FN(Cos)
// Atomic type register (SetAtomicAdd/Max/Min/None: data_copy.h; SyncAll, IBSet/IBWait: block_sync.h).
KWB_SIM_UNSUPPORTED_FN(SetAtomicType)

}  // namespace AscendC
