// SPDX-License-Identifier: MIT
#pragma once
// The 128-bit CMPMASK register (docs/emulator.md, "CMPMASK register"): Compare without a destination
// tensor writes its result bits there (one repeat, 256 bytes of each source), GetCmpMask copies the
// register to UB, SetCmpMask loads it from UB. Per block, like the other registers.

#include <cstdint>

#include "kwb_sim/vec_ops.h"

namespace kwb_sim {

// a.src0, a.src1 and the mask of one repeat (a.mask / a.maskBits / a.isSetMask, strides from
// BinaryRepeatParams; repeat is 1).
void vecCompareToCmpMask(const VecArgs& a, int cmpMode, SrcLoc loc);
// dst (GetCmpMask) or src (SetCmpMask): 16 bytes of UB, 16-byte aligned as the reference asks (other
// vector operands need 32).
void vecGetCmpMask(const LocalDesc& dst, DType dt, SrcLoc loc);
void vecSetCmpMask(const LocalDesc& src, DType dt, SrcLoc loc);

}  // namespace kwb_sim

namespace AscendC {

template <typename T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask,
             const BinaryRepeatParams& repeatParams, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Compare", T, half, float);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Compare", kwb_sim::VOp::Copy, src0);
  a.dst = kwb_sim::LocalDesc{nullptr, {}};
  a.src0 = kwb_sim::localDesc(src0);
  a.src1 = kwb_sim::localDesc(src1);
  a.nsrc = 2;
  kwb_sim::setMaskArg(a, isSetMask, mask, 1);
  kwb_sim::setBinaryRepeat(a, repeatParams);
  kwb_sim::vecCompareToCmpMask(a, static_cast<int>(cmpMode), loc_);
}
template <typename T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask[],
             const BinaryRepeatParams& repeatParams, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Compare", T, half, float);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Compare", kwb_sim::VOp::Copy, src0);
  a.dst = kwb_sim::LocalDesc{nullptr, {}};
  a.src0 = kwb_sim::localDesc(src0);
  a.src1 = kwb_sim::localDesc(src1);
  a.nsrc = 2;
  kwb_sim::setMaskArg(a, isSetMask, mask, 1);
  kwb_sim::setBinaryRepeat(a, repeatParams);
  kwb_sim::vecCompareToCmpMask(a, static_cast<int>(cmpMode), loc_);
}

template <typename T>
void GetCmpMask(const LocalTensor<T>& dst, KWB_SIM_LOC) {
  kwb_sim::vecGetCmpMask(kwb_sim::localDesc(dst), kwb_sim::dtypeOf<T>(), loc_);
}
template <typename T>
void SetCmpMask(const LocalTensor<T>& src, KWB_SIM_LOC) {
  kwb_sim::vecSetCmpMask(kwb_sim::localDesc(src), kwb_sim::dtypeOf<T>(), loc_);
}

}  // namespace AscendC
