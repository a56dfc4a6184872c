// SPDX-License-Identifier: MIT
#pragma once
// Moves inside UB: Gather (dst[i] = src at byte offset srcBaseAddr + srcOffset[i]) in count form and in
// both mask/repeat forms, and Brcb (each source element broadcast into one 32-byte block of dst).

#include <cstdint>

#include "kwb_sim/vec_ops.h"

namespace kwb_sim {

// a.dst, a.src0 (source), offsets: uint32 byte offsets. Count form: a.count; repeat form: mask, repeat
// and a.dstRep (32-byte blocks).
void vecGather(const VecArgs& a, const LocalDesc& offsets, std::uint32_t srcBaseAddr, SrcLoc loc);
void vecBrcb(const VecArgs& a, SrcLoc loc);

}  // namespace kwb_sim

#define KWB_SIM_TYPES_GATHER half, float, int16_t, uint16_t, int32_t, uint32_t KWB_SIM_BF16_IF_2201

namespace AscendC {

struct BrcbRepeatParams {
  BrcbRepeatParams() = default;
  BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
  uint32_t blockNumber = 8;
  uint16_t dstRepStride = 8;
  uint16_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint32_t count, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Gather", T, KWB_SIM_TYPES_GATHER);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Gather", kwb_sim::VOp::Copy, dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  a.count = count;
  kwb_sim::vecGather(a, kwb_sim::localDesc(srcOffset), srcBaseAddr, loc_);
}
template <typename T, bool isSetMask = true>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime,
            const uint16_t dstRepStride, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Gather", T, KWB_SIM_TYPES_GATHER);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Gather", kwb_sim::VOp::Copy, dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  a.dstRep = dstRepStride;
  kwb_sim::vecGather(a, kwb_sim::localDesc(srcOffset), srcBaseAddr, loc_);
}
template <typename T, bool isSetMask = true>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
            const uint16_t dstRepStride, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Gather", T, KWB_SIM_TYPES_GATHER);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Gather", kwb_sim::VOp::Copy, dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  a.dstRep = dstRepStride;
  kwb_sim::vecGather(a, kwb_sim::localDesc(srcOffset), srcBaseAddr, loc_);
}

template <typename T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
          const BrcbRepeatParams& repeatParams, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Brcb", T, KWB_SIM_TYPES_GATHER);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Brcb", kwb_sim::VOp::Copy, dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  a.countForm = false;
  a.repeat = repeatTime;
  a.dstBlk = repeatParams.dstBlkStride;
  a.dstRep = repeatParams.dstRepStride;
  kwb_sim::vecBrcb(a, loc_);
}

}  // namespace AscendC
