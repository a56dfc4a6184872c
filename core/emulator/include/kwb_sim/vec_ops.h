// SPDX-License-Identifier: MIT
#pragma once
// Element-wise vector ops (PIPE_V) in count form and in mask/repeat form: binary (Add Sub Mul Div Max
// Min And Or), tensor-scalar (Adds Muls Maxs Mins LeakyRelu ShiftLeft ShiftRight Axpy), unary (Exp Ln
// Abs Sqrt Rsqrt Reciprocal Relu Not) and Duplicate. Every call goes through one runtime entry
// (kwb_sim::vecRun) that checks parameters, bounds and ordering, records the instruction and runs a tight
// contiguous kernel.

#include <cstdint>

#include "kwb_sim/data_copy.h"
#include "kwb_sim/runtime.h"
#include "kwb_sim/tensor.h"

namespace kwb_sim {

struct VecArgs {
  const char* api = "";
  VOp op = VOp::Add;
  DType dt = DType::None;
  std::uint32_t esize = 0;
  LocalDesc dst{nullptr, {}};
  LocalDesc src0{nullptr, {}};
  LocalDesc src1{nullptr, {}};
  int nsrc = 0;  // 0 (Duplicate), 1 (unary / scalar), 2 (binary)
  double scalar = 0;
  bool countForm = true;
  std::int64_t count = 0;  // count form
  bool isSetMask = true;   // repeat form: use the mask argument (false: the mask register)
  bool maskBits = false;   // repeat form: mask[2] bit mask instead of a continuous count
  std::uint64_t mask[2] = {0, 0};
  std::uint32_t repeat = 0;
  std::uint32_t dstBlk = 1, src0Blk = 1, src1Blk = 1;
  std::uint32_t dstRep = 8, src0Rep = 8, src1Rep = 8;
  // Cast: source element type and rounding mode (RoundMode value); srcEsize 0 = same as dst.
  DType srcDt = DType::None;
  std::uint32_t srcEsize = 0;
  int roundMode = -1;
  // Axpy: the destination is also an input (dst = src * scalar + dst).
  bool readsDst = false;
};
void vecRun(const VecArgs& a, SrcLoc loc);

template <typename T>
VecArgs vecArgs(const char* api, VOp op, const AscendC::LocalTensor<T>& dst) {
  VecArgs a;
  a.api = api;
  a.op = op;
  a.dt = dtypeOf<T>();
  a.esize = sizeof(T);
  a.dst = localDesc(dst);
  return a;
}
template <typename T, typename U>
double scalarBits(const U& v) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<double>(static_cast<T>(v));
  else
    return static_cast<double>(static_cast<float>(static_cast<T>(v)));
}
inline void setBinaryRepeat(VecArgs& a, const AscendC::BinaryRepeatParams& p) {
  a.dstBlk = p.dstBlkStride;
  a.src0Blk = p.src0BlkStride;
  a.src1Blk = p.src1BlkStride;
  a.dstRep = p.dstRepStride;
  a.src0Rep = p.src0RepStride;
  a.src1Rep = p.src1RepStride;
}
inline void setUnaryRepeat(VecArgs& a, const AscendC::UnaryRepeatParams& p) {
  a.dstBlk = p.dstBlkStride;
  a.src0Blk = p.srcBlkStride;
  a.dstRep = p.dstRepStride;
  a.src0Rep = p.srcRepStride;
}
inline void setMaskArg(VecArgs& a, bool isSetMask, std::uint64_t mask, std::uint32_t repeat) {
  a.countForm = false;
  a.isSetMask = isSetMask;
  a.maskBits = false;
  a.mask[0] = mask;
  a.repeat = repeat;
}
inline void setMaskArg(VecArgs& a, bool isSetMask, const std::uint64_t mask[], std::uint32_t repeat) {
  a.countForm = false;
  a.isSetMask = isSetMask;
  a.maskBits = true;
  a.mask[0] = mask[0];
  a.mask[1] = mask[1];
  a.repeat = repeat;
}

}  // namespace kwb_sim

#define KWB_SIM_TYPES_ARITH half, float, int16_t, int32_t
#define KWB_SIM_TYPES_FLOAT half, float
#define KWB_SIM_TYPES_RELU half, float, int32_t
#define KWB_SIM_TYPES_BITWISE int16_t, uint16_t
#define KWB_SIM_TYPES_SHIFT int16_t, uint16_t, int32_t, uint32_t

// Binary ops: count form and both mask/repeat forms.
#define KWB_SIM_BINARY_OP(NAME, TYPES)                                                                \
  template <typename T>                                                                               \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
            const int32_t& count, KWB_SIM_LOC) {                                                      \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, TYPES);                                                           \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::NAME, dst);                            \
    a.src0 = kwb_sim::localDesc(src0);                                                                \
    a.src1 = kwb_sim::localDesc(src1);                                                                \
    a.nsrc = 2;                                                                                       \
    a.count = count;                                                                                  \
    kwb_sim::vecRun(a, loc_);                                                                         \
  }                                                                                                   \
  template <typename T, bool isSetMask = true>                                                        \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
            uint64_t mask, const int32_t repeatTime, const BinaryRepeatParams& params, KWB_SIM_LOC) { \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, TYPES);                                                           \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::NAME, dst);                            \
    a.src0 = kwb_sim::localDesc(src0);                                                                \
    a.src1 = kwb_sim::localDesc(src1);                                                                \
    a.nsrc = 2;                                                                                       \
    kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);                                              \
    kwb_sim::setBinaryRepeat(a, params);                                                              \
    kwb_sim::vecRun(a, loc_);                                                                         \
  }                                                                                                   \
  template <typename T, bool isSetMask = true>                                                        \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
            const uint64_t mask[], const int32_t repeatTime, const BinaryRepeatParams& params,        \
            KWB_SIM_LOC) {                                                                            \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, TYPES);                                                           \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::NAME, dst);                            \
    a.src0 = kwb_sim::localDesc(src0);                                                                \
    a.src1 = kwb_sim::localDesc(src1);                                                                \
    a.nsrc = 2;                                                                                       \
    kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);                                              \
    kwb_sim::setBinaryRepeat(a, params);                                                              \
    kwb_sim::vecRun(a, loc_);                                                                         \
  }

// Unary ops.
#define KWB_SIM_UNARY_OP(NAME, TYPES)                                                                      \
  template <typename T>                                                                                    \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, KWB_SIM_LOC) {     \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, TYPES);                                                                \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::NAME, dst);                                 \
    a.src0 = kwb_sim::localDesc(src);                                                                      \
    a.nsrc = 1;                                                                                            \
    a.count = count;                                                                                       \
    kwb_sim::vecRun(a, loc_);                                                                              \
  }                                                                                                        \
  template <typename T, bool isSetMask = true>                                                             \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const int32_t repeatTime, \
            const UnaryRepeatParams& params, KWB_SIM_LOC) {                                                \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, TYPES);                                                                \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::NAME, dst);                                 \
    a.src0 = kwb_sim::localDesc(src);                                                                      \
    a.nsrc = 1;                                                                                            \
    kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);                                                   \
    kwb_sim::setUnaryRepeat(a, params);                                                                    \
    kwb_sim::vecRun(a, loc_);                                                                              \
  }                                                                                                        \
  template <typename T, bool isSetMask = true>                                                             \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                   \
            const int32_t repeatTime, const UnaryRepeatParams& params, KWB_SIM_LOC) {                      \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, TYPES);                                                                \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::NAME, dst);                                 \
    a.src0 = kwb_sim::localDesc(src);                                                                      \
    a.nsrc = 1;                                                                                            \
    kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);                                                   \
    kwb_sim::setUnaryRepeat(a, params);                                                                    \
    kwb_sim::vecRun(a, loc_);                                                                              \
  }

// Tensor-scalar ops (the scalar may be given in another arithmetic type, as user code often does).
#define KWB_SIM_SCALAR_OP(NAME, TYPES)                                                                       \
  template <typename T, bool isSetMask = true, typename U>                                                   \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,                      \
            const int32_t& count, KWB_SIM_LOC) {                                                             \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, TYPES);                                                                  \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::NAME, dst);                                   \
    a.src0 = kwb_sim::localDesc(src);                                                                        \
    a.nsrc = 1;                                                                                              \
    a.count = count;                                                                                         \
    a.scalar = kwb_sim::scalarBits<T>(scalarValue);                                                          \
    kwb_sim::vecRun(a, loc_);                                                                                \
  }                                                                                                          \
  template <typename T, bool isSetMask = true, typename U>                                                   \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, uint64_t mask,       \
            const int32_t repeatTime, const UnaryRepeatParams& params, KWB_SIM_LOC) {                        \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, TYPES);                                                                  \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::NAME, dst);                                   \
    a.src0 = kwb_sim::localDesc(src);                                                                        \
    a.nsrc = 1;                                                                                              \
    a.scalar = kwb_sim::scalarBits<T>(scalarValue);                                                          \
    kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);                                                     \
    kwb_sim::setUnaryRepeat(a, params);                                                                      \
    kwb_sim::vecRun(a, loc_);                                                                                \
  }                                                                                                          \
  template <typename T, bool isSetMask = true, typename U>                                                   \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,                      \
            const uint64_t mask[], const int32_t repeatTime, const UnaryRepeatParams& params, KWB_SIM_LOC) { \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, TYPES);                                                                  \
    kwb_sim::VecArgs a = kwb_sim::vecArgs(#NAME, kwb_sim::VOp::NAME, dst);                                   \
    a.src0 = kwb_sim::localDesc(src);                                                                        \
    a.nsrc = 1;                                                                                              \
    a.scalar = kwb_sim::scalarBits<T>(scalarValue);                                                          \
    kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);                                                     \
    kwb_sim::setUnaryRepeat(a, params);                                                                      \
    kwb_sim::vecRun(a, loc_);                                                                                \
  }

namespace AscendC {

KWB_SIM_BINARY_OP(Add, KWB_SIM_TYPES_ARITH)
KWB_SIM_BINARY_OP(Sub, KWB_SIM_TYPES_ARITH)
KWB_SIM_BINARY_OP(Mul, KWB_SIM_TYPES_ARITH)
KWB_SIM_BINARY_OP(Div, KWB_SIM_TYPES_FLOAT)
KWB_SIM_BINARY_OP(Max, KWB_SIM_TYPES_ARITH)
KWB_SIM_BINARY_OP(Min, KWB_SIM_TYPES_ARITH)
KWB_SIM_BINARY_OP(And, KWB_SIM_TYPES_BITWISE)
KWB_SIM_BINARY_OP(Or, KWB_SIM_TYPES_BITWISE)

KWB_SIM_SCALAR_OP(Adds, KWB_SIM_TYPES_ARITH)
KWB_SIM_SCALAR_OP(Muls, KWB_SIM_TYPES_ARITH)
KWB_SIM_SCALAR_OP(Maxs, KWB_SIM_TYPES_ARITH)
KWB_SIM_SCALAR_OP(Mins, KWB_SIM_TYPES_ARITH)
KWB_SIM_SCALAR_OP(LeakyRelu, KWB_SIM_TYPES_FLOAT)
KWB_SIM_SCALAR_OP(ShiftLeft, KWB_SIM_TYPES_SHIFT)

KWB_SIM_UNARY_OP(Exp, KWB_SIM_TYPES_FLOAT)
KWB_SIM_UNARY_OP(Ln, KWB_SIM_TYPES_FLOAT)
KWB_SIM_UNARY_OP(Abs, KWB_SIM_TYPES_FLOAT)
KWB_SIM_UNARY_OP(Sqrt, KWB_SIM_TYPES_FLOAT)
KWB_SIM_UNARY_OP(Rsqrt, KWB_SIM_TYPES_FLOAT)
KWB_SIM_UNARY_OP(Reciprocal, KWB_SIM_TYPES_FLOAT)
KWB_SIM_UNARY_OP(Relu, KWB_SIM_TYPES_RELU)
KWB_SIM_UNARY_OP(Not, KWB_SIM_TYPES_BITWISE)

// ShiftRight: logical for unsigned, arithmetic for signed types; the mask/repeat forms take roundEn
// (add the last bit shifted out; int16_t/int32_t only, ignored for unsigned types).
template <typename T, bool isSetMask = true, typename U>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,
                const int32_t& count, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("ShiftRight", T, KWB_SIM_TYPES_SHIFT);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("ShiftRight", kwb_sim::VOp::ShiftRight, dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  a.count = count;
  a.scalar = kwb_sim::scalarBits<T>(scalarValue);
  kwb_sim::vecRun(a, loc_);
}
template <typename T, bool isSetMask = true, typename U>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, uint64_t mask,
                const int32_t repeatTime, const UnaryRepeatParams& params, bool roundEn = false,
                KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("ShiftRight", T, KWB_SIM_TYPES_SHIFT);
  kwb_sim::VecArgs a = kwb_sim::vecArgs(
      "ShiftRight", roundEn && std::is_signed_v<T> ? kwb_sim::VOp::ShiftRightRound : kwb_sim::VOp::ShiftRight,
      dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  a.scalar = kwb_sim::scalarBits<T>(scalarValue);
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::setUnaryRepeat(a, params);
  kwb_sim::vecRun(a, loc_);
}
template <typename T, bool isSetMask = true, typename U>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,
                const uint64_t mask[], const int32_t repeatTime, const UnaryRepeatParams& params,
                bool roundEn = false, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("ShiftRight", T, KWB_SIM_TYPES_SHIFT);
  kwb_sim::VecArgs a = kwb_sim::vecArgs(
      "ShiftRight", roundEn && std::is_signed_v<T> ? kwb_sim::VOp::ShiftRightRound : kwb_sim::VOp::ShiftRight,
      dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  a.scalar = kwb_sim::scalarBits<T>(scalarValue);
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::setUnaryRepeat(a, params);
  kwb_sim::vecRun(a, loc_);
}

// Axpy: dst = src * scalar + dst on half or float (dst is read as well as written). The mixed-precision
// form (half src, float dst) is not emulated and fails as unsupported-dtype.
#define KWB_SIM_AXPY_DTYPES_(T, U)                                                        \
  KWB_SIM_REQUIRE_DTYPE("Axpy", T, KWB_SIM_TYPES_FLOAT);                                  \
  static_assert(std::is_same_v<T, U>,                                                     \
                "kwb-sim: unsupported-dtype: Axpy with a source type different from the " \
                "destination type (mixed precision) is not emulated on " KWB_SIM_SOC_NAME)
template <typename T, typename U, typename S>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const S& scalarValue, const int32_t& count,
          KWB_SIM_LOC) {
  KWB_SIM_AXPY_DTYPES_(T, U);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Axpy", kwb_sim::VOp::Axpy, dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  a.readsDst = true;
  a.count = count;
  a.scalar = kwb_sim::scalarBits<U>(scalarValue);
  kwb_sim::vecRun(a, loc_);
}
template <typename T, typename U, bool isSetMask = true, typename S>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const S& scalarValue, uint64_t mask,
          const int32_t repeatTime, const UnaryRepeatParams& params, KWB_SIM_LOC) {
  KWB_SIM_AXPY_DTYPES_(T, U);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Axpy", kwb_sim::VOp::Axpy, dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  a.readsDst = true;
  a.scalar = kwb_sim::scalarBits<U>(scalarValue);
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::setUnaryRepeat(a, params);
  kwb_sim::vecRun(a, loc_);
}
template <typename T, typename U, bool isSetMask = true, typename S>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const S& scalarValue, const uint64_t mask[],
          const int32_t repeatTime, const UnaryRepeatParams& params, KWB_SIM_LOC) {
  KWB_SIM_AXPY_DTYPES_(T, U);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Axpy", kwb_sim::VOp::Axpy, dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  a.readsDst = true;
  a.scalar = kwb_sim::scalarBits<U>(scalarValue);
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  kwb_sim::setUnaryRepeat(a, params);
  kwb_sim::vecRun(a, loc_);
}
#undef KWB_SIM_AXPY_DTYPES_

// Duplicate: fill with a scalar. Not for int8/uint8 (the real compiler rejects them too).
template <typename T, typename U>
void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, const int32_t& count, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Duplicate", T, half, float, int16_t, uint16_t, int32_t,
                        uint32_t KWB_SIM_BF16_IF_2201);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Duplicate", kwb_sim::VOp::Dup, dst);
  a.nsrc = 0;
  a.count = count;
  if constexpr (std::is_integral_v<T>)
    a.scalar = static_cast<double>(static_cast<T>(scalarValue));
  else
    a.scalar = static_cast<double>(static_cast<float>(static_cast<T>(scalarValue)));
  kwb_sim::vecRun(a, loc_);
}
template <typename T, bool isSetMask = true, typename U>
void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, uint64_t mask, const int32_t repeatTime,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Duplicate", T, half, float, int16_t, uint16_t, int32_t,
                        uint32_t KWB_SIM_BF16_IF_2201);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Duplicate", kwb_sim::VOp::Dup, dst);
  a.nsrc = 0;
  if constexpr (std::is_integral_v<T>)
    a.scalar = static_cast<double>(static_cast<T>(scalarValue));
  else
    a.scalar = static_cast<double>(static_cast<float>(static_cast<T>(scalarValue)));
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  a.dstBlk = dstBlockStride;
  a.dstRep = dstRepeatStride;
  kwb_sim::vecRun(a, loc_);
}
template <typename T, bool isSetMask = true, typename U>
void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, const uint64_t mask[],
               const int32_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
               KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Duplicate", T, half, float, int16_t, uint16_t, int32_t,
                        uint32_t KWB_SIM_BF16_IF_2201);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Duplicate", kwb_sim::VOp::Dup, dst);
  a.nsrc = 0;
  if constexpr (std::is_integral_v<T>)
    a.scalar = static_cast<double>(static_cast<T>(scalarValue));
  else
    a.scalar = static_cast<double>(static_cast<float>(static_cast<T>(scalarValue)));
  kwb_sim::setMaskArg(a, isSetMask, mask, repeatTime);
  a.dstBlk = dstBlockStride;
  a.dstRep = dstRepeatStride;
  kwb_sim::vecRun(a, loc_);
}

}  // namespace AscendC
