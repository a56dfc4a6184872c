// SPDX-License-Identifier: MIT
#pragma once
// Copy: UB -> UB in mask/repeat form with DataBlock strides (CopyRepeatParams). In counter mode the mask
// is the number of elements of EACH repeat and repeatTime counts (unlike the other vector ops, where the
// counter covers the whole call): each repeat then moves ceil(mask * sizeof(T) / 32) blocks, possibly
// more than 8 (docs/emulator.md, "Copy").

#include <cstdint>

#include "kwb_sim/vec_ops.h"

namespace AscendC {

struct CopyRepeatParams {
  CopyRepeatParams() = default;
  CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, const uint16_t dstRepeatSizeIn,
                   const uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = 1;  // DataBlocks between adjacent blocks of one repeat
  uint16_t srcStride = 1;
  uint16_t dstRepeatSize = 8;  // DataBlocks between the same block of adjacent repeats, 0..4095
  uint16_t srcRepeatSize = 8;
};

}  // namespace AscendC

namespace kwb_sim {

// a.dst, a.src0, mask (setMaskArg), a.dstBlk / a.src0Blk, a.dstRep / a.src0Rep (DataBlocks).
void vecCopyUb(const VecArgs& a, SrcLoc loc);

template <typename T>
VecArgs copyUbArgs(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const AscendC::CopyRepeatParams& p) {
  VecArgs a = vecArgs("Copy", VOp::Copy, dst);
  a.src0 = localDesc(src);
  a.nsrc = 1;
  a.dstBlk = p.dstStride;
  a.src0Blk = p.srcStride;
  a.dstRep = p.dstRepeatSize;
  a.src0Rep = p.srcRepeatSize;
  return a;
}

}  // namespace kwb_sim

#define KWB_SIM_TYPES_COPY_UB int16_t, uint16_t, half, int32_t, uint32_t, float KWB_SIM_BF16_IF_2201

namespace AscendC {

template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTime,
          const CopyRepeatParams& repeatParams, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Copy", T, KWB_SIM_TYPES_COPY_UB);
  kwb_sim::VecArgs a = kwb_sim::copyUbArgs(dst, src, repeatParams);
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::vecCopyUb(a, loc_);
}
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
          const uint8_t repeatTime, const CopyRepeatParams& repeatParams, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Copy", T, KWB_SIM_TYPES_COPY_UB);
  kwb_sim::VecArgs a = kwb_sim::copyUbArgs(dst, src, repeatParams);
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::vecCopyUb(a, loc_);
}

}  // namespace AscendC
