// SPDX-License-Identifier: MIT
#pragma once
// Fused multiply-add ops that read their destination: FusedMulAdd (dst = src0 * dst + src1) and
// MulAddDst (dst = src0 * src1 + dst), in count form and both mask/repeat forms (BinaryRepeatParams).

#include <cstdint>
#include <type_traits>

#include "kwb_sim/vec_ops.h"

namespace kwb_sim {

enum class FusedKind : std::uint8_t { FusedMulAdd, MulAddDst };
void vecFused(const VecArgs& a, FusedKind kind, SrcLoc loc);

template <typename T>
VecArgs fusedArgs(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                  const AscendC::LocalTensor<T>& src1) {
  VecArgs a = vecArgs(api, VOp::Copy, dst);
  a.src0 = localDesc(src0);
  a.src1 = localDesc(src1);
  a.nsrc = 2;
  a.readsDst = true;
  return a;
}

}  // namespace kwb_sim

#define KWB_SIM_FUSED_DTYPES_(NAME, T, U)                                                               \
  KWB_SIM_REQUIRE_DTYPE(NAME, T, KWB_SIM_TYPES_FLOAT);                                                  \
  static_assert(std::is_same_v<T, U>, "kwb-sim: unsupported-dtype: " NAME                               \
                                      " with a source type different from the destination type (mixed " \
                                      "precision) is not emulated on " KWB_SIM_SOC_NAME)

#define KWB_SIM_FUSED_OP(NAME)                                                                        \
  template <typename T, typename U = T>                                                               \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,        \
            const int32_t& count, KWB_SIM_LOC) {                                                      \
    KWB_SIM_FUSED_DTYPES_(#NAME, T, U);                                                               \
    kwb_sim::VecArgs a = kwb_sim::fusedArgs(#NAME, dst, src0, src1);                                  \
    a.count = count;                                                                                  \
    kwb_sim::vecFused(a, kwb_sim::FusedKind::NAME, loc_);                                             \
  }                                                                                                   \
  template <typename T, typename U = T, bool isSetMask = true>                                        \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,        \
            uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& params, KWB_SIM_LOC) { \
    KWB_SIM_FUSED_DTYPES_(#NAME, T, U);                                                               \
    kwb_sim::VecArgs a = kwb_sim::fusedArgs(#NAME, dst, src0, src1);                                  \
    kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);                                              \
    kwb_sim::setBinaryRepeat(a, params);                                                              \
    kwb_sim::vecFused(a, kwb_sim::FusedKind::NAME, loc_);                                             \
  }                                                                                                   \
  template <typename T, typename U = T, bool isSetMask = true>                                        \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,        \
            const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& params,        \
            KWB_SIM_LOC) {                                                                            \
    KWB_SIM_FUSED_DTYPES_(#NAME, T, U);                                                               \
    kwb_sim::VecArgs a = kwb_sim::fusedArgs(#NAME, dst, src0, src1);                                  \
    kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);                                              \
    kwb_sim::setBinaryRepeat(a, params);                                                              \
    kwb_sim::vecFused(a, kwb_sim::FusedKind::NAME, loc_);                                             \
  }

namespace AscendC {
KWB_SIM_FUSED_OP(FusedMulAdd)
KWB_SIM_FUSED_OP(MulAddDst)
}  // namespace AscendC

#undef KWB_SIM_FUSED_OP
#undef KWB_SIM_FUSED_DTYPES_
