// SPDX-License-Identifier: MIT
#pragma once
// GatherMask: keeps the elements of src0 whose gather-mask bit is 1, packed into dst, and returns how
// many it kept (rsvdCnt). The mask is a built-in pattern (1..7: even, odd, one of every four, all) or a
// user tensor of bits consumed lane by lane; normal mode (256 bytes per repeat) or counter mode.

#include <cstdint>

#include "kwb_sim/vec_ops.h"

namespace AscendC {

struct GatherMaskParams {
  GatherMaskParams() = default;
  GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                   const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn),
        repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = 8;
  uint8_t src1RepeatStride = 8;
};

}  // namespace AscendC

namespace kwb_sim {

// a.dst, a.src0; pattern: the user's bit tensor (nullptr: builtIn 1..7). Returns rsvdCnt.
std::uint64_t vecGatherMask(const VecArgs& a, const LocalDesc* pattern, std::uint8_t builtIn, bool reduceMode,
                            std::uint32_t mask, const AscendC::GatherMaskParams& p, SrcLoc loc);

}  // namespace kwb_sim

#define KWB_SIM_TYPES_GATHER_MASK \
  int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float KWB_SIM_BF16_IF_2201

namespace AscendC {

template <typename T, typename U>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("GatherMask", T, KWB_SIM_TYPES_GATHER_MASK);
  static_assert(sizeof(U) == sizeof(T) && std::is_unsigned_v<U>,
                "kwb-sim: unsupported-dtype: GatherMask needs an unsigned pattern type as wide as the data "
                "(uint8_t, uint16_t or uint32_t) on " KWB_SIM_SOC_NAME);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("GatherMask", kwb_sim::VOp::Copy, dst);
  a.src0 = kwb_sim::localDesc(src0);
  a.nsrc = 1;
  const kwb_sim::LocalDesc pattern = kwb_sim::localDesc(src1Pattern);
  rsvdCnt = kwb_sim::vecGatherMask(a, &pattern, 0, reduceMode, mask, gatherMaskParams, loc_);
}
template <typename T>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("GatherMask", T, KWB_SIM_TYPES_GATHER_MASK);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("GatherMask", kwb_sim::VOp::Copy, dst);
  a.src0 = kwb_sim::localDesc(src0);
  a.nsrc = 1;
  rsvdCnt = kwb_sim::vecGatherMask(a, nullptr, src1Pattern, reduceMode, mask, gatherMaskParams, loc_);
}

}  // namespace AscendC
