// SPDX-License-Identifier: MIT
#pragma once
// ReduceRepeat (one SUM / MAX / MIN per repeat, MAX/MIN with the index as ReduceOrder says) and
// ReduceDataBlock (one result per 32-byte DataBlock), the reduceType-templated forms of the repeat and
// block reductions (WholeReduceX / BlockReduceX, vec_misc.h and vec_reduce_block.h) that the newer
// samples call. Source and destination types must match on the 910B/310P parts.

#include <cstdint>
#include <type_traits>

#include "kwb_sim/vec_misc.h"
#include "kwb_sim/vec_reduce_block.h"

namespace AscendC {
enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };
}  // namespace AscendC

namespace kwb_sim {

// ReduceRepeat: the destination alignment and dstRepStride unit depend on reduceType, dtype and order
// (checked here), then the repeat reduction runs as WholeReduceX does.
void vecReduceRepeat(const VecArgs& a, RedOp op, int order, SrcLoc loc);

constexpr RedOp redOpOf(AscendC::ReduceType t) {
  return t == AscendC::ReduceType::SUM ? RedOp::Sum
                                       : (t == AscendC::ReduceType::MAX ? RedOp::Max : RedOp::Min);
}
constexpr BlockRedKind blockKindOf(AscendC::ReduceType t) {
  return t == AscendC::ReduceType::SUM
             ? BlockRedKind::BlockSum
             : (t == AscendC::ReduceType::MAX ? BlockRedKind::BlockMax : BlockRedKind::BlockMin);
}

// U == T is asserted by the caller (one clean refusal, no follow-up errors from a mismatched call here).
template <typename T, typename U>
VecArgs reduceRepeatArgs(const char* api, const AscendC::LocalTensor<T>& dst,
                         const AscendC::LocalTensor<U>& src, std::int32_t dstRepStride,
                         std::int32_t srcBlkStride, std::int32_t srcRepStride) {
  VecArgs a = vecArgs(api, VOp::Copy, dst);
  a.src0 = localDesc(src);
  a.nsrc = 1;
  a.dstRep = static_cast<std::uint32_t>(dstRepStride);
  a.src0Blk = static_cast<std::uint32_t>(srcBlkStride);
  a.src0Rep = static_cast<std::uint32_t>(srcRepStride);
  return a;
}

}  // namespace kwb_sim

#define KWB_SIM_REDUCE_TYPED_HEAD \
  template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
#define KWB_SIM_REDUCE_SAME_TYPE(NAME)                                                                     \
  static_assert(std::is_same_v<T, U>, "kwb-sim: unsupported-dtype: " NAME                                  \
                                      " needs the same source and destination type on " KWB_SIM_SOC_NAME); \
  KWB_SIM_REQUIRE_DTYPE(NAME, T, half, float)

namespace AscendC {

KWB_SIM_REDUCE_TYPED_HEAD
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                  const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                  const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                  KWB_SIM_LOC) {
  KWB_SIM_REDUCE_SAME_TYPE("ReduceRepeat");
  kwb_sim::VecArgs a =
      kwb_sim::reduceRepeatArgs("ReduceRepeat", dst, src, dstRepStride, srcBlkStride, srcRepStride);
  kwb_sim::setMaskArg(a, isSetMask, static_cast<uint64_t>(mask), static_cast<uint32_t>(repeatTime));
  kwb_sim::vecReduceRepeat(a, kwb_sim::redOpOf(reduceType), static_cast<int>(order), loc_);
}
KWB_SIM_REDUCE_TYPED_HEAD
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                  const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                  const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                  KWB_SIM_LOC) {
  KWB_SIM_REDUCE_SAME_TYPE("ReduceRepeat");
  kwb_sim::VecArgs a =
      kwb_sim::reduceRepeatArgs("ReduceRepeat", dst, src, dstRepStride, srcBlkStride, srcRepStride);
  kwb_sim::setMaskArg(a, isSetMask, mask, static_cast<uint32_t>(repeatTime));
  kwb_sim::vecReduceRepeat(a, kwb_sim::redOpOf(reduceType), static_cast<int>(order), loc_);
}

KWB_SIM_REDUCE_TYPED_HEAD
void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                     const int32_t srcRepStride, KWB_SIM_LOC) {
  KWB_SIM_REDUCE_SAME_TYPE("ReduceDataBlock");
  kwb_sim::VecArgs a = kwb_sim::reduceRepeatArgs("ReduceDataBlock", dst, src, 0, 0, 0);
  kwb_sim::setMaskArg(a, isSetMask, static_cast<uint64_t>(mask), static_cast<uint32_t>(repeatTime));
  kwb_sim::vecBlockReduce(a, kwb_sim::blockKindOf(reduceType), dstRepStride, srcBlkStride, srcRepStride,
                          loc_);
}
KWB_SIM_REDUCE_TYPED_HEAD
void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                     const int32_t srcRepStride, KWB_SIM_LOC) {
  KWB_SIM_REDUCE_SAME_TYPE("ReduceDataBlock");
  kwb_sim::VecArgs a = kwb_sim::reduceRepeatArgs("ReduceDataBlock", dst, src, 0, 0, 0);
  kwb_sim::setMaskArg(a, isSetMask, mask, static_cast<uint32_t>(repeatTime));
  kwb_sim::vecBlockReduce(a, kwb_sim::blockKindOf(reduceType), dstRepStride, srcBlkStride, srcRepStride,
                          loc_);
}

}  // namespace AscendC

#undef KWB_SIM_REDUCE_TYPED_HEAD
#undef KWB_SIM_REDUCE_SAME_TYPE
