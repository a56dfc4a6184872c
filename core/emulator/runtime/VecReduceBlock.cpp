// SPDX-License-Identifier: MIT
// BlockReduceSum/Max/Min, PairReduceSum, RepeatReduceSum (kwb_sim/vec_reduce_block.h). Each repeat reads
// 8 blocks of 32 bytes (strided); results are written contiguously per repeat, dstRepStride apart.
// Sums are taken in double and rounded once (the hardware adds in a binary tree in the data type).

#include <cmath>
#include <string>
#include <utility>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/vec_reduce_block.h"
#include "kwb_sim/vec_reduce_repeat.h"

namespace kwb_sim {

namespace {

bool checkStride(const VecArgs& a, const char* name, std::int64_t v, SrcLoc loc) {
  if (v >= 0 && v <= 65535) return true;
  report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
         std::string(a.api) + ": " + name + " = " + std::to_string(v) + " is outside 0..65535");
  return false;
}

// Results per repeat and the byte unit of dstRepStride.
std::uint32_t resultsPerRepeat(BlockRedKind kind, std::uint32_t lanes) {
  switch (kind) {
    case BlockRedKind::PairSum:
      return lanes / 2;
    case BlockRedKind::RepeatSum:
      return 1;
    default:
      return 8;
  }
}
std::uint32_t dstAlignment(BlockRedKind kind, std::uint32_t es) {
  switch (kind) {
    case BlockRedKind::RepeatSum:
      return es;
    case BlockRedKind::PairSum:
      return 32;
    default:
      return 8 * es;  // 16 bytes for half, 32 for float
  }
}

// The value a reduction over no element leaves (MAX/MIN start at the type's lowest/highest value).
double identity(BlockRedKind kind, DType dt) {
  const double big = dt == DType::F16 ? 65504.0 : INFINITY;
  if (kind == BlockRedKind::BlockMax) return -big;
  if (kind == BlockRedKind::BlockMin) return big;
  return 0.0;
}

}  // namespace

void vecBlockReduce(const VecArgs& a, BlockRedKind kind, std::int64_t dstRep, std::int64_t srcBlk,
                    std::int64_t srcRep, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  const std::uint32_t lanes = 256 / es;
  if (!checkStride(a, "dstRepStride", dstRep, loc) || !checkStride(a, "srcBlkStride", srcBlk, loc) ||
      !checkStride(a, "srcRepStride", srcRep, loc))
    return;
  const VecMask m = vecResolveMask(a, lanes, loc);
  if (!m.ok || m.repeat == 0) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  const auto blk = static_cast<std::uint32_t>(srcBlk), rep = static_cast<std::uint32_t>(srcRep);
  const std::uint32_t per = resultsPerRepeat(kind, lanes);
  const std::uint64_t dstStep = static_cast<std::uint64_t>(dstRep) * per;  // elements between repeats
  VecOperand ops[2];
  ops[0].desc = &a.src0;
  ops[0].read = true;
  ops[0].operand = 1;
  ops[0].span = vecActiveSpan(m, lanes, es, blk, rep);
  ops[1].desc = &a.dst;
  ops[1].write = true;
  ops[1].operand = 0;
  ops[1].align = dstAlignment(kind, es);
  ops[1].span = ((m.repeat - 1) * dstStep + per) * es;
  if (vecOperandOffset(a.src0) < vecOperandOffset(a.dst) + ops[1].span &&
      vecOperandOffset(a.dst) < vecOperandOffset(a.src0) + ops[0].span &&
      a.src0.ref.space == a.dst.ref.space && vecOperandOffset(a.src0) != vecOperandOffset(a.dst))
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
           std::string(a.api) +
               ": the destination partially overlaps the source; use separate buffers (or "
               "the same start address)");
  if (!vecCheckOperands(a.api, loc, ops, 2)) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands(a.api, loc, ops, 2);
  std::uint64_t done = 0;
  double results[128] = {};
  for (std::uint32_t r = 0; r < m.repeat; ++r) {
    const double init = identity(kind, a.dt);
    for (std::uint32_t k = 0; k < per; ++k) results[k] = init;
    bool any[128] = {};
    for (std::uint32_t i = 0; i < lanes; ++i) {
      if (!m.on(r, i, lanes)) continue;
      const double v = loadAsDouble(a.dt, a.src0.ptr + vecLaneOffset(r, i, es, blk, rep));
      ++done;
      std::uint32_t k = 0;
      if (kind == BlockRedKind::PairSum)
        k = i / 2;
      else if (kind != BlockRedKind::RepeatSum)
        k = i / (32 / es);
      double& acc = results[k];
      if (kind == BlockRedKind::BlockMax)
        acc = any[k] ? std::fmax(acc, v) : v;
      else if (kind == BlockRedKind::BlockMin)
        acc = any[k] ? std::fmin(acc, v) : v;
      else
        acc += v;
      any[k] = true;
    }
    // A DataBlock with no active lane keeps the destination's old value on the 910B parts (the API
    // reference's ReduceDataBlock constraints); the pair and repeat sums always write.
    const bool perBlock =
        kind == BlockRedKind::BlockSum || kind == BlockRedKind::BlockMax || kind == BlockRedKind::BlockMin;
    for (std::uint32_t k = 0; k < per; ++k)
      if (any[k] || !perBlock) storeFromDouble(a.dt, a.dst.ptr + (r * dstStep + k) * es, results[k]);
  }
  vecRecordOp(a.api, loc, a.dt, es, done, m.repeat, ops, 2);
}

// ReduceRepeat's destination alignment (the API reference's table of ReduceRepeat): SUM, and MAX/MIN
// with ORDER_ONLY_VALUE, align to the element; MAX/MIN with value and index to two elements;
// ORDER_ONLY_INDEX to the 4-byte index.
void vecReduceRepeat(const VecArgs& a, RedOp op, int order, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  std::uint32_t align = es;
  if (op != RedOp::Sum) {
    if (order == AscendC::ORDER_VALUE_INDEX || order == AscendC::ORDER_INDEX_VALUE)
      align = 2 * es;
    else if (order == AscendC::ORDER_ONLY_INDEX)
      align = 4;
  }
  const std::uint32_t at = vecOperandOffset(a.dst);
  if (at % align != 0)
    report(Cat::MisalignedCopy, a.api, loc, Pipe::V, 0,
           "ReduceRepeat: the destination starts at " + std::string(spaceName(a.dst.ref.space)) +
               " byte offset " + std::to_string(at) + ", not " + std::to_string(align) +
               "-byte aligned as this reduceType, data type and order need");
  const std::uint32_t srcAt = vecOperandOffset(a.src0);
  if (srcAt % 32 != 0)
    report(Cat::MisalignedCopy, a.api, loc, Pipe::V, 1,
           "ReduceRepeat: the source starts at " + std::string(spaceName(a.src0.ref.space)) +
               " byte offset " + std::to_string(srcAt) + ", not 32-byte aligned");
  for (const auto& [name, v] : {std::pair<const char*, std::uint32_t>{"dstRepStride", a.dstRep},
                                {"srcBlkStride", a.src0Blk},
                                {"srcRepStride", a.src0Rep}})
    if (!checkStride(a, name, static_cast<std::int32_t>(v), loc)) return;
  vecReduce(a, op, true, false, order, LocalDesc{nullptr, {}}, loc);
}

}  // namespace kwb_sim
