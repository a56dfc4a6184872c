// SPDX-License-Identifier: MIT
#pragma once
// Cast (RoundMode), Compare (bit mask out), Select (SELMODE) and the reductions (ReduceSum/Max/Min,
// WholeReduceSum/Max/Min). Dtype pairs the hardware lacks are refused at compile time.

#include <cstdint>

#include "kwb_sim/vec_ops.h"

namespace kwb_sim {

void vecCompare(const VecArgs& a, int cmpMode, SrcLoc loc);
// Select: a.src0 = selMask (bits), a.src1 = src0 tensor; src1 is `other` (tensor) or a.scalar.
void vecSelect(const VecArgs& a, const LocalDesc& other, bool scalarMode, int selMode, DType maskDt,
               SrcLoc loc);
enum class RedOp : std::uint8_t { Sum, Max, Min };
// Count form (ReduceX with a work tensor): result in dst[0] (+ index in dst[1] when calIndex).
// Repeat form of ReduceX: a.repeat / mask / src0Rep. WholeReduceX: one result per repeat.
void vecReduce(const VecArgs& a, RedOp op, bool whole, bool calIndex, int order, const LocalDesc& work,
               SrcLoc loc);

}  // namespace kwb_sim

// ---- Cast: the supported (dst, src) pairs of arch 2201 (310P: without bfloat16).
#define KWB_SIM_CAST_PAIR(D, S) (std::is_same_v<TD, D> && std::is_same_v<TS, S>)
#define KWB_SIM_CAST1_(D, S)                                                 \
  static_assert(!(std::is_same_v<TD, D> && std::is_same_v<TS, S>) || kwbOk_, \
                "kwb-sim: unsupported-dtype: Cast does not support " #S " -> " #D " on " KWB_SIM_SOC_NAME);
// clang-format 14 reflows these macro-of-macro lists differently on every pass, so they are kept as written.
// clang-format off
#define KWB_SIM_CAST_ROW_(S)                                                             \
  KWB_SIM_CAST1_(half, S) KWB_SIM_CAST1_(bfloat16_t, S) KWB_SIM_CAST1_(float, S)         \
  KWB_SIM_CAST1_(int8_t, S) KWB_SIM_CAST1_(uint8_t, S) KWB_SIM_CAST1_(int16_t, S)        \
  KWB_SIM_CAST1_(int32_t, S) KWB_SIM_CAST1_(int64_t, S) KWB_SIM_CAST1_(uint16_t, S)      \
  KWB_SIM_CAST1_(uint32_t, S)
// clang-format on

namespace kwb_sim {
template <typename TD, typename TS>
constexpr bool castSupported() {
  return KWB_SIM_CAST_PAIR(float, half) || KWB_SIM_CAST_PAIR(int32_t, half) ||
         KWB_SIM_CAST_PAIR(int16_t, half) || KWB_SIM_CAST_PAIR(int8_t, half) ||
         KWB_SIM_CAST_PAIR(uint8_t, half) || KWB_SIM_CAST_PAIR(half, float) ||
         KWB_SIM_CAST_PAIR(int32_t, float) || KWB_SIM_CAST_PAIR(int16_t, float) ||
         KWB_SIM_CAST_PAIR(int64_t, float) || KWB_SIM_CAST_PAIR(float, float) ||
         KWB_SIM_CAST_PAIR(float, int32_t) || KWB_SIM_CAST_PAIR(int16_t, int32_t) ||
         KWB_SIM_CAST_PAIR(int64_t, int32_t) || KWB_SIM_CAST_PAIR(half, int32_t) ||
         KWB_SIM_CAST_PAIR(half, int16_t) || KWB_SIM_CAST_PAIR(float, int16_t) ||
         KWB_SIM_CAST_PAIR(half, int8_t) || KWB_SIM_CAST_PAIR(half, uint8_t) ||
         KWB_SIM_CAST_PAIR(float, int64_t) || KWB_SIM_CAST_PAIR(int32_t, int64_t)
#if KWB_SIM_ARCH != 2002
         || KWB_SIM_CAST_PAIR(bfloat16_t, float) || KWB_SIM_CAST_PAIR(float, bfloat16_t) ||
         KWB_SIM_CAST_PAIR(int32_t, bfloat16_t)
#endif
      ;
}
}  // namespace kwb_sim

// clang-format off
#define KWB_SIM_CHECK_CAST(TDIN, TSIN)                                                                   \
  do {                                                                                                   \
    using TD = TDIN;                                                                                     \
    using TS = TSIN;                                                                                     \
    constexpr bool kwbOk_ = ::kwb_sim::castSupported<TD, TS>();                                          \
    KWB_SIM_CAST_ROW_(half) KWB_SIM_CAST_ROW_(bfloat16_t) KWB_SIM_CAST_ROW_(float) KWB_SIM_CAST_ROW_(int8_t) \
    KWB_SIM_CAST_ROW_(uint8_t) KWB_SIM_CAST_ROW_(int16_t) KWB_SIM_CAST_ROW_(int32_t) KWB_SIM_CAST_ROW_(int64_t) \
    static_assert(kwbOk_, "kwb-sim: unsupported-dtype: Cast does not support this type pair on " KWB_SIM_SOC_NAME); \
  } while (0)
// clang-format on

namespace kwb_sim {
// What every form of Cast passes: dst, one source of another dtype, the rounding mode.
template <typename T1, typename T2>
VecArgs castArgs(const AscendC::LocalTensor<T1>& dst, const AscendC::LocalTensor<T2>& src,
                 const AscendC::RoundMode& round) {
  VecArgs a = vecArgs("Cast", VOp::Copy, dst);
  a.src0 = localDesc(src);
  a.nsrc = 1;
  a.srcDt = dtypeOf<T2>();
  a.srcEsize = sizeof(T2);
  a.roundMode = static_cast<int>(round);
  return a;
}
}  // namespace kwb_sim

namespace AscendC {

template <typename T1, typename T2>
void Cast(const LocalTensor<T1>& dst, const LocalTensor<T2>& src, const RoundMode& round,
          const uint32_t count, KWB_SIM_LOC) {
  KWB_SIM_CHECK_CAST(T1, T2);
  kwb_sim::VecArgs a = kwb_sim::castArgs(dst, src, round);
  a.count = count;
  kwb_sim::vecRun(a, loc_);
}
template <typename T1, typename T2, bool isSetMask = true>
void Cast(const LocalTensor<T1>& dst, const LocalTensor<T2>& src, const RoundMode& round, const uint64_t mask,
          const int32_t repeatTime, const UnaryRepeatParams& params, KWB_SIM_LOC) {
  KWB_SIM_CHECK_CAST(T1, T2);
  kwb_sim::VecArgs a = kwb_sim::castArgs(dst, src, round);
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::setUnaryRepeat(a, params);
  kwb_sim::vecRun(a, loc_);
}
template <typename T1, typename T2, bool isSetMask = true>
void Cast(const LocalTensor<T1>& dst, const LocalTensor<T2>& src, const RoundMode& round,
          const uint64_t mask[], const int32_t repeatTime, const UnaryRepeatParams& params, KWB_SIM_LOC) {
  KWB_SIM_CHECK_CAST(T1, T2);
  kwb_sim::VecArgs a = kwb_sim::castArgs(dst, src, round);
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::setUnaryRepeat(a, params);
  kwb_sim::vecRun(a, loc_);
}

// ---- Compare: dst holds one bit per element (LSB first).
template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, uint32_t count, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Compare", T, half, float, int32_t);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Compare", kwb_sim::VOp::Copy, src0);
  a.dst = kwb_sim::localDesc(dst);
  a.src0 = kwb_sim::localDesc(src0);
  a.src1 = kwb_sim::localDesc(src1);
  a.nsrc = 2;
  a.count = count;
  kwb_sim::vecCompare(a, static_cast<int>(cmpMode), loc_);
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, const uint64_t mask, int32_t repeatTime, const BinaryRepeatParams& params,
             KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Compare", T, half, float, int32_t);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Compare", kwb_sim::VOp::Copy, src0);
  a.dst = kwb_sim::localDesc(dst);
  a.src0 = kwb_sim::localDesc(src0);
  a.src1 = kwb_sim::localDesc(src1);
  a.nsrc = 2;
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::setBinaryRepeat(a, params);
  kwb_sim::vecCompare(a, static_cast<int>(cmpMode), loc_);
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, const uint64_t mask[], int32_t repeatTime, const BinaryRepeatParams& params,
             KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Compare", T, half, float, int32_t);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Compare", kwb_sim::VOp::Copy, src0);
  a.dst = kwb_sim::localDesc(dst);
  a.src0 = kwb_sim::localDesc(src0);
  a.src1 = kwb_sim::localDesc(src1);
  a.nsrc = 2;
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::setBinaryRepeat(a, params);
  kwb_sim::vecCompare(a, static_cast<int>(cmpMode), loc_);
}

// ---- Select: bit i of selMask set -> src0[i], else src1[i] (or the scalar).
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Select", T, half, float);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Select", kwb_sim::VOp::Copy, dst);
  a.src0 = kwb_sim::localDesc(selMask);
  a.src1 = kwb_sim::localDesc(src0);
  a.nsrc = 2;
  a.count = count;
  kwb_sim::vecSelect(a, kwb_sim::localDesc(src1), false, static_cast<int>(selMode), kwb_sim::dtypeOf<U>(),
                     loc_);
}
template <typename T, typename U, typename S,
          typename std::enable_if<!std::is_base_of<LocalTensor<T>, S>::value, int>::type = 0>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, S src1,
            SELMODE selMode, uint32_t count, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Select", T, half, float);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Select", kwb_sim::VOp::Copy, dst);
  a.src0 = kwb_sim::localDesc(selMask);
  a.src1 = kwb_sim::localDesc(src0);
  a.nsrc = 2;
  a.count = count;
  a.scalar = kwb_sim::scalarBits<T>(src1);
  kwb_sim::vecSelect(a, kwb_sim::LocalDesc{nullptr, {}}, true, static_cast<int>(selMode),
                     kwb_sim::dtypeOf<U>(), loc_);
}

// ---- Reductions
#define KWB_SIM_REDUCE_OP(NAME, OP)                                                                          \
  template <typename T>                                                                                      \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,                \
            const int32_t count, bool calIndex = false, KWB_SIM_LOC) {                                       \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, half, float);                                                            \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::Copy, dst);                                   \
    a.src0 = kwb_sim::localDesc(src);                                                                        \
    a.nsrc = 1;                                                                                              \
    a.count = count;                                                                                         \
    kwb_sim::vecReduce(a, kwb_sim::RedOp::OP, false, calIndex, 0, kwb_sim::localDesc(work), loc_);           \
  }                                                                                                          \
  template <typename T>                                                                                      \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,                \
            const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false, \
            KWB_SIM_LOC) {                                                                                   \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, half, float);                                                            \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::Copy, dst);                                   \
    a.src0 = kwb_sim::localDesc(src);                                                                        \
    a.nsrc = 1;                                                                                              \
    kwb_sim::setMaskArg(a, true, static_cast<uint64_t>(mask), static_cast<uint32_t>(repeatTime));            \
    a.src0Rep = static_cast<uint32_t>(srcRepStride);                                                         \
    kwb_sim::vecReduce(a, kwb_sim::RedOp::OP, false, calIndex, 0, kwb_sim::localDesc(work), loc_);           \
  }

#define KWB_SIM_WHOLE_REDUCE_OP(NAME, OP, EXTRA_DECL, EXTRA_ORDER)                                       \
  template <typename T, bool isSetMask = true>                                                           \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,                    \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,            \
            const int32_t srcRepStride EXTRA_DECL, KWB_SIM_LOC) {                                        \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, half, float);                                                        \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::Copy, dst);                               \
    a.src0 = kwb_sim::localDesc(src);                                                                    \
    a.nsrc = 1;                                                                                          \
    kwb_sim::setMaskArg(a, isSetMask, static_cast<uint64_t>(mask), static_cast<uint32_t>(repeatTime));   \
    a.dstRep = static_cast<uint32_t>(dstRepStride);                                                      \
    a.src0Blk = static_cast<uint32_t>(srcBlkStride);                                                     \
    a.src0Rep = static_cast<uint32_t>(srcRepStride);                                                     \
    kwb_sim::vecReduce(a, kwb_sim::RedOp::OP, true, false, EXTRA_ORDER, kwb_sim::LocalDesc{nullptr, {}}, \
                       loc_);                                                                            \
  }                                                                                                      \
  template <typename T, bool isSetMask = true>                                                           \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                 \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,            \
            const int32_t srcRepStride EXTRA_DECL, KWB_SIM_LOC) {                                        \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, half, float);                                                        \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::Copy, dst);                               \
    a.src0 = kwb_sim::localDesc(src);                                                                    \
    a.nsrc = 1;                                                                                          \
    kwb_sim::setMaskArg(a, isSetMask, mask, static_cast<uint32_t>(repeatTime));                          \
    a.dstRep = static_cast<uint32_t>(dstRepStride);                                                      \
    a.src0Blk = static_cast<uint32_t>(srcBlkStride);                                                     \
    a.src0Rep = static_cast<uint32_t>(srcRepStride);                                                     \
    kwb_sim::vecReduce(a, kwb_sim::RedOp::OP, true, false, EXTRA_ORDER, kwb_sim::LocalDesc{nullptr, {}}, \
                       loc_);                                                                            \
  }

#define KWB_SIM_NOTHING
#define KWB_SIM_ORDER_DECL , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX
KWB_SIM_REDUCE_OP(ReduceSum, Sum)
KWB_SIM_REDUCE_OP(ReduceMax, Max)
KWB_SIM_REDUCE_OP(ReduceMin, Min)
KWB_SIM_WHOLE_REDUCE_OP(WholeReduceSum, Sum, KWB_SIM_NOTHING, 2)
KWB_SIM_WHOLE_REDUCE_OP(WholeReduceMax, Max, KWB_SIM_ORDER_DECL, static_cast<int>(order))
KWB_SIM_WHOLE_REDUCE_OP(WholeReduceMin, Min, KWB_SIM_ORDER_DECL, static_cast<int>(order))

}  // namespace AscendC
