// SPDX-License-Identifier: MIT
#pragma once
// Per-block and per-repeat reductions in mask/repeat form: BlockReduceSum/Max/Min (one result per
// 32-byte block, 8 per repeat), PairReduceSum (adjacent pairs) and RepeatReduceSum (one result per
// repeat). Argument order as in the API reference: repeatTime before the mask.

#include <cstdint>

#include "kwb_sim/vec_ops.h"

namespace kwb_sim {

enum class BlockRedKind : std::uint8_t { BlockSum, BlockMax, BlockMin, PairSum, RepeatSum };
// a.dst / a.src0, mask and repeat (setMaskArg), a.dstRep (in the unit of one repeat's result),
// a.src0Blk, a.src0Rep (32-byte blocks). Strides given as negative ints are reported.
void vecBlockReduce(const VecArgs& a, BlockRedKind kind, std::int64_t dstRep, std::int64_t srcBlk,
                    std::int64_t srcRep, SrcLoc loc);

template <typename T>
VecArgs blockReduceArgs(const char* api, const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<T>& src) {
  VecArgs a = vecArgs(api, VOp::Copy, dst);
  a.src0 = localDesc(src);
  a.nsrc = 1;
  return a;
}

}  // namespace kwb_sim

#define KWB_SIM_BLOCK_REDUCE_OP(NAME, KIND)                                                                  \
  template <typename T, bool isSetMask = true>                                                               \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,                  \
            const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,                      \
            const int32_t srcRepStride, KWB_SIM_LOC) {                                                       \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, half, float);                                                            \
    kwb_sim::VecArgs a = kwb_sim::blockReduceArgs(#NAME, dst, src);                                          \
    kwb_sim::setMaskArg(a, isSetMask, static_cast<uint64_t>(mask), static_cast<uint32_t>(repeatTime));       \
    kwb_sim::vecBlockReduce(a, kwb_sim::BlockRedKind::KIND, dstRepStride, srcBlkStride, srcRepStride, loc_); \
  }                                                                                                          \
  template <typename T, bool isSetMask = true>                                                               \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,                  \
            const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,                   \
            const int32_t srcRepStride, KWB_SIM_LOC) {                                                       \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, half, float);                                                            \
    kwb_sim::VecArgs a = kwb_sim::blockReduceArgs(#NAME, dst, src);                                          \
    kwb_sim::setMaskArg(a, isSetMask, mask, static_cast<uint32_t>(repeatTime));                              \
    kwb_sim::vecBlockReduce(a, kwb_sim::BlockRedKind::KIND, dstRepStride, srcBlkStride, srcRepStride, loc_); \
  }

namespace AscendC {

KWB_SIM_BLOCK_REDUCE_OP(BlockReduceSum, BlockSum)
KWB_SIM_BLOCK_REDUCE_OP(BlockReduceMax, BlockMax)
KWB_SIM_BLOCK_REDUCE_OP(BlockReduceMin, BlockMin)
KWB_SIM_BLOCK_REDUCE_OP(PairReduceSum, PairSum)

// RepeatReduceSum: one sum per repeat. dstBlkStride is accepted and has no effect (one result per
// repeat has no blocks), as in the reference.
template <typename T, bool isSetMask = true>
void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                     const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                     const int32_t dstRepStride, const int32_t srcRepStride, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("RepeatReduceSum", T, half, float);
  (void)dstBlkStride;
  kwb_sim::VecArgs a = kwb_sim::blockReduceArgs("RepeatReduceSum", dst, src);
  kwb_sim::setMaskArg(a, isSetMask, static_cast<uint64_t>(mask), static_cast<uint32_t>(repeatTime));
  kwb_sim::vecBlockReduce(a, kwb_sim::BlockRedKind::RepeatSum, dstRepStride, srcBlkStride, srcRepStride,
                          loc_);
}

}  // namespace AscendC

#undef KWB_SIM_BLOCK_REDUCE_OP
