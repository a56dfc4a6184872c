// SPDX-License-Identifier: MIT
#pragma once
// Compares: each element of a tensor against one scalar, one result bit per element (LSB first).
// Count form (count * sizeof(T) must be a whole number of 256-byte repeats) and both mask/repeat forms;
// on the supported SoCs the mask is reserved and every lane of each repeat is compared.

#include <cstdint>

#include "kwb_sim/vec_ops.h"

namespace kwb_sim {

// a.dst (bit mask), a.src0, a.scalar; count form or repeat form (a.repeat, a.src0Blk, a.src0Rep).
void vecCompares(const VecArgs& a, int cmpMode, SrcLoc loc);

template <typename T, typename U>
VecArgs comparesArgs(const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& src, T scalar) {
  VecArgs a = vecArgs("Compares", VOp::Copy, src);
  a.dst = localDesc(dst);
  a.src0 = localDesc(src);
  a.nsrc = 1;
  a.scalar = scalarBits<T>(scalar);
  return a;
}

}  // namespace kwb_sim

#if KWB_SIM_ARCH == 2002
#define KWB_SIM_TYPES_COMPARES half, float
#else
#define KWB_SIM_TYPES_COMPARES half, float, int32_t
#endif

namespace AscendC {

template <typename T, typename U>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
              uint32_t count, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Compares", T, KWB_SIM_TYPES_COMPARES);
  kwb_sim::VecArgs a = kwb_sim::comparesArgs(dst, src0, src1Scalar);
  a.count = count;
  kwb_sim::vecCompares(a, static_cast<int>(cmpMode), loc_);
}
template <typename T, typename U, bool isSetMask = true>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
              const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& repeatParams, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Compares", T, KWB_SIM_TYPES_COMPARES);
  kwb_sim::VecArgs a = kwb_sim::comparesArgs(dst, src0, src1Scalar);
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::setUnaryRepeat(a, repeatParams);
  kwb_sim::vecCompares(a, static_cast<int>(cmpMode), loc_);
}
template <typename T, typename U, bool isSetMask = true>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
              const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& repeatParams, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Compares", T, KWB_SIM_TYPES_COMPARES);
  kwb_sim::VecArgs a = kwb_sim::comparesArgs(dst, src0, src1Scalar);
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::setUnaryRepeat(a, repeatParams);
  kwb_sim::vecCompares(a, static_cast<int>(cmpMode), loc_);
}

}  // namespace AscendC
