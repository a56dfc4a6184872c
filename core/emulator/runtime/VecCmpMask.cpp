// SPDX-License-Identifier: MIT
// The CMPMASK register (kwb_sim/vec_cmp_mask.h). Compare without a destination compares one repeat (256
// bytes of each source, under the call's mask) and sets the register's low 256 / sizeof(T) bits, one per
// lane, LSB first; a masked-off lane's bit and the bits above the lane count are 0. GetCmpMask writes
// the 16 bytes of the register to UB; SetCmpMask reads them back. All three run on PIPE_V.

#include <cstring>
#include <string>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/vec_cmp_mask.h"

namespace kwb_sim {

namespace {
constexpr std::uint32_t kCmpMaskBytes = 16;

// The one UB operand of GetCmpMask / SetCmpMask.
VecOperand registerOperand(const LocalDesc& d, bool write) {
  VecOperand op;
  op.desc = &d;
  op.read = !write;
  op.write = write;
  op.operand = 0;
  op.span = kCmpMaskBytes;
  op.align = 16;  // the reference: 16-byte aligned (not the 32 of other vector operands)
  return op;
}
}  // namespace

void vecCompareToCmpMask(const VecArgs& a, int cmpMode, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  const std::uint32_t lanes = 256 / es;
  const VecMask m = vecResolveMask(a, lanes, loc);
  if (!m.ok) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  VecOperand ops[2];
  ops[0].desc = &a.src0;
  ops[0].read = true;
  ops[0].operand = 0;
  ops[0].span = vecActiveSpan(m, lanes, es, a.src0Blk, a.src0Rep);
  ops[1].desc = &a.src1;
  ops[1].read = true;
  ops[1].operand = 1;
  ops[1].span = vecActiveSpan(m, lanes, es, a.src1Blk, a.src1Rep);
  if (!vecCheckAndSyncOperands(a, loc, ops, 2)) return;
  const auto mode = static_cast<AscendC::CMPMODE>(cmpMode);
  std::uint64_t bits[2] = {0, 0};
  std::uint64_t compared = 0;
  for (std::uint32_t i = 0; i < lanes; ++i) {
    if (!m.on(0, i, lanes)) continue;
    ++compared;
    const double x = loadAsDouble(a.dt, a.src0.ptr + vecLaneOffset(0, i, es, a.src0Blk, a.src0Rep));
    const double y = loadAsDouble(a.dt, a.src1.ptr + vecLaneOffset(0, i, es, a.src1Blk, a.src1Rep));
    if (compareValues(mode, x, y)) bits[i / 64] |= 1ull << (i % 64);
  }
  g_block.cmpMask[0] = bits[0];
  g_block.cmpMask[1] = bits[1];
  vecRecordOp(a.api, loc, a.dt, es, compared, 1, ops, 2);
}

void vecGetCmpMask(const LocalDesc& dst, DType dt, SrcLoc loc) {
  const VecOperand op = registerOperand(dst, true);
  if (!vecCheckOperands("GetCmpMask", loc, &op, 1)) {
    vecRecordOp("GetCmpMask", loc, dt, 1, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands("GetCmpMask", loc, &op, 1);
  std::memcpy(dst.ptr, g_block.cmpMask, kCmpMaskBytes);
  vecRecordOp("GetCmpMask", loc, dt, 1, kCmpMaskBytes, 1, &op, 1);
}

void vecSetCmpMask(const LocalDesc& src, DType dt, SrcLoc loc) {
  const VecOperand op = registerOperand(src, false);
  if (!vecCheckOperands("SetCmpMask", loc, &op, 1)) {
    vecRecordOp("SetCmpMask", loc, dt, 1, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands("SetCmpMask", loc, &op, 1);
  std::memcpy(g_block.cmpMask, src.ptr, kCmpMaskBytes);
  vecRecordOp("SetCmpMask", loc, dt, 1, kCmpMaskBytes, 1, &op, 1);
}

}  // namespace kwb_sim
