// SPDX-License-Identifier: MIT
// FusedMulAdd and MulAddDst (kwb_sim/vec_fused.h): three inputs, one of them the destination. Computed
// in double and rounded once to the data type (the hardware's fused unit rounds once as well).

#include <cstring>
#include <string>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/vec_fused.h"

namespace kwb_sim {

namespace {

double fused(FusedKind kind, double s0, double s1, double d) {
  return kind == FusedKind::FusedMulAdd ? s0 * d + s1 : s0 * s1 + d;
}

void checkOverlap(const VecArgs& a, std::uint64_t span, SrcLoc loc) {
  const LocalDesc* srcs[2] = {&a.src0, &a.src1};
  for (int k = 0; k < 2; ++k) {
    const std::uint64_t d0 = vecOperandOffset(a.dst), s0 = vecOperandOffset(*srcs[k]);
    if (srcs[k]->ref.space != a.dst.ref.space || d0 == s0) continue;
    if (d0 < s0 + span && s0 < d0 + span)
      report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
             std::string(a.api) + ": destination [" + std::to_string(d0) + ", " + std::to_string(d0 + span) +
                 ") partially overlaps source operand " + std::to_string(k + 2) + " [" + std::to_string(s0) +
                 ", " + std::to_string(s0 + span) +
                 "); dst may only overlap a source completely (same start)");
  }
}

}  // namespace

void vecFused(const VecArgs& a, FusedKind kind, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  const std::uint32_t lanes = 256 / es;
  VecOperand ops[3];
  ops[0].desc = &a.dst;
  ops[0].read = ops[0].write = true;
  ops[0].operand = 0;
  ops[1].desc = &a.src0;
  ops[1].read = true;
  ops[1].operand = 1;
  ops[2].desc = &a.src1;
  ops[2].read = true;
  ops[2].operand = 2;
  if (a.countForm) {
    if (a.count < 0) {
      report(Cat::InvalidParam, a.api, loc, Pipe::V, 3,
             std::string(a.api) + ": count = " + std::to_string(a.count) + " is negative");
      return;
    }
    const auto n = static_cast<std::uint64_t>(a.count);
    if (n == 0) {
      vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
      return;
    }
    for (auto& o : ops) o.span = n * es;
    if (!vecCheckOperands(a.api, loc, ops, 3)) {
      vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
      return;
    }
    checkOverlap(a, n * es, loc);
    vecSyncOperands(a.api, loc, ops, 3);
    for (std::uint64_t i = 0; i < n; ++i) {
      const double s0 = loadAsDouble(a.dt, a.src0.ptr + i * es), s1 = loadAsDouble(a.dt, a.src1.ptr + i * es);
      const double d = loadAsDouble(a.dt, a.dst.ptr + i * es);
      storeFromDouble(a.dt, a.dst.ptr + i * es, fused(kind, s0, s1, d));
    }
    vecRecordOp(a.api, loc, a.dt, es, n, static_cast<std::uint32_t>((n * es + 255) / 256), ops, 3);
    return;
  }
  if (a.dstBlk == 0)
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
           std::string(a.api) +
               ": dstBlkStride = 0 is undefined behaviour (every block would write the same 32 bytes)");
  const VecMask m = vecResolveMask(a, lanes, loc);
  if (!m.ok || m.repeat == 0) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  ops[0].span = vecActiveSpan(m, lanes, es, a.dstBlk, a.dstRep);
  ops[1].span = vecActiveSpan(m, lanes, es, a.src0Blk, a.src0Rep);
  ops[2].span = vecActiveSpan(m, lanes, es, a.src1Blk, a.src1Rep);
  if (!vecCheckOperands(a.api, loc, ops, 3)) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands(a.api, loc, ops, 3);
  std::uint64_t done = 0;
  for (std::uint32_t r = 0; r < m.repeat; ++r) {
    for (std::uint32_t i = 0; i < lanes; ++i) {
      if (!m.on(r, i, lanes)) continue;
      std::uint8_t* d = a.dst.ptr + vecLaneOffset(r, i, es, a.dstBlk, a.dstRep);
      const double s0 = loadAsDouble(a.dt, a.src0.ptr + vecLaneOffset(r, i, es, a.src0Blk, a.src0Rep));
      const double s1 = loadAsDouble(a.dt, a.src1.ptr + vecLaneOffset(r, i, es, a.src1Blk, a.src1Rep));
      storeFromDouble(a.dt, d, fused(kind, s0, s1, loadAsDouble(a.dt, d)));
      ++done;
    }
  }
  vecRecordOp(a.api, loc, a.dt, es, done, m.repeat, ops, 3);
}

}  // namespace kwb_sim
