// SPDX-License-Identifier: MIT
// Transpose (kwb_sim/vec_transpose.h). The 16 x 16 form swaps rows and columns of one 512-byte block of
// two-byte elements (in place allowed). The enhanced form converts [N,C,H,W] <-> [N,H,W,C] with C up to
// 4095, H*W up to 4095 and H*W*sizeof(T) a multiple of 32 bytes; its sharedTmpBuffer must hold at least
// (C + 2) * h0 * w0 * sizeof(T) bytes (NCHW -> NHWC) or (2C + 1) * h0 * w0 * sizeof(T) (NHWC -> NCHW),
// h0 = 32 for one-byte types and 16 otherwise, w0 = 32 / sizeof(T), as the API reference's table for
// the 910B parts says; source and destination may not overlap there. The other transposeType values
// are not supported by the reference on these parts and are refused.

#include <cstring>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/vec_transpose.h"

namespace kwb_sim {

namespace {

using AscendC::TransposeType;

constexpr std::uint64_t kBlockSide = 16;

const char* typeName(TransposeType t) {
  switch (t) {
    case TransposeType::TRANSPOSE_ND2ND_B16:
      return "TRANSPOSE_ND2ND_B16";
    case TransposeType::TRANSPOSE_NCHW2NHWC:
      return "TRANSPOSE_NCHW2NHWC";
    case TransposeType::TRANSPOSE_NHWC2NCHW:
      return "TRANSPOSE_NHWC2NCHW";
    default:
      return "this transposeType";
  }
}

bool overlaps(const LocalDesc& x, std::uint64_t xLen, const LocalDesc& y, std::uint64_t yLen) {
  if (x.ref.space != y.ref.space) return false;
  const std::uint64_t a = vecOperandOffset(x), b = vecOperandOffset(y);
  return a < b + yLen && b < a + xLen;
}

void blockTranspose(const VecArgs& a, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  if (es != 2) {
    report(
        Cat::InvalidParam, a.api, loc, Pipe::V, 0,
        "Transpose: TRANSPOSE_ND2ND_B16 transposes 16 x 16 two-byte elements; this tensor's elements are " +
            std::to_string(es) + " bytes");
    return;
  }
  const std::uint64_t bytes = kBlockSide * kBlockSide * es;
  const VecUnaryOperands pair(a, bytes, bytes);
  const VecOperand* ops = pair.ops;
  if (!vecCheckAndSyncOperands(a, loc, ops, 2)) return;
  const std::vector<std::uint8_t> src(a.src0.ptr, a.src0.ptr + bytes);
  for (std::uint64_t r = 0; r < kBlockSide; ++r)
    for (std::uint64_t c = 0; c < kBlockSide; ++c)
      std::memcpy(a.dst.ptr + (c * kBlockSide + r) * es, src.data() + (r * kBlockSide + c) * es, es);
  vecRecordOp(a.api, loc, a.dt, es, kBlockSide * kBlockSide, static_cast<std::uint32_t>(bytes / 256), ops, 2);
}

}  // namespace

std::uint64_t transposeMinTmpBytes(TransposeType type, std::uint32_t cSize, std::uint32_t typeSize) {
  const std::uint64_t h0 = typeSize == 1 ? 32 : 16;
  const std::uint64_t w0 = 32 / typeSize;
  const std::uint64_t tile = h0 * w0 * typeSize;
  if (type == TransposeType::TRANSPOSE_NCHW2NHWC) return (std::uint64_t{cSize} + 2) * tile;
  if (type == TransposeType::TRANSPOSE_NHWC2NCHW) return (std::uint64_t{cSize} * 2 + 1) * tile;
  return 0;
}

void vecTranspose(const VecArgs& a, const LocalDesc* tmp, std::uint64_t tmpBytes,
                  const AscendC::TransposeParamsExt& p, SrcLoc loc) {
  const TransposeType type = p.transposeType;
  if (type == TransposeType::TRANSPOSE_TYPE_NONE) return;  // the reference: the API does nothing
  if (type == TransposeType::TRANSPOSE_ND2ND_B16) {
    blockTranspose(a, loc);
    return;
  }
  if (type != TransposeType::TRANSPOSE_NCHW2NHWC && type != TransposeType::TRANSPOSE_NHWC2NCHW) {
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 3,
           "Transpose: transposeType " + std::to_string(static_cast<int>(type)) +
               " is not supported here (the API reference marks the NZ and ND_ONLY forms unsupported; the "
               "enhanced Transpose takes TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC or TRANSPOSE_NHWC2NCHW)");
    return;
  }
  const std::uint32_t es = a.esize;
  const std::uint64_t n = p.nSize, c = p.cSize, hw = std::uint64_t{p.hSize} * p.wSize;
  if (c > 4095 || hw > 4095 || (hw * es) % 32 != 0) {
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 3,
           std::string("Transpose: ") + typeName(type) + " needs cSize <= 4095, hSize * wSize <= 4095 and " +
               "hSize * wSize * sizeof(T) a multiple of 32 bytes; got cSize = " + std::to_string(c) +
               ", hSize * wSize = " + std::to_string(hw) + " (" + std::to_string(hw * es) + " bytes)");
    return;
  }
  if (n == 0 || c == 0 || hw == 0) return;  // the reference: nothing is computed or written
  const std::uint64_t minTmp = transposeMinTmpBytes(type, static_cast<std::uint32_t>(c), es);
  if (tmpBytes < minTmp)
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 2,
           std::string("Transpose: sharedTmpBuffer holds ") + std::to_string(tmpBytes) +
               " bytes, less than the " + std::to_string(minTmp) + " bytes " + typeName(type) +
               " needs for cSize = " + std::to_string(c) +
               " (the API reference's sharedTmpBuffer table); the intermediate tiles overrun it on hardware");
  const std::uint64_t bytes = n * c * hw * es;
  VecOperand ops[3];
  ops[0].desc = &a.src0;
  ops[0].read = true;
  ops[0].operand = 1;
  ops[0].span = bytes;
  ops[1].desc = &a.dst;
  ops[1].write = true;
  ops[1].operand = 0;
  ops[1].span = bytes;
  int count = 2;
  if (tmp && tmpBytes > 0) {
    ops[2].desc = tmp;
    ops[2].read = ops[2].write = true;
    ops[2].operand = 2;
    ops[2].span = tmpBytes < minTmp ? tmpBytes : minTmp;
    count = 3;
  }
  if (overlaps(a.src0, bytes, a.dst, bytes))
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
           std::string("Transpose: ") + typeName(type) +
               " does not support a destination that overlaps the source; use separate buffers");
  if (!vecCheckOperands(a.api, loc, ops, count)) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands(a.api, loc, ops, count);
  const std::vector<std::uint8_t> src(a.src0.ptr, a.src0.ptr + bytes);
  const bool toNhwc = type == TransposeType::TRANSPOSE_NCHW2NHWC;
  for (std::uint64_t b = 0; b < n; ++b)
    for (std::uint64_t ci = 0; ci < c; ++ci)
      for (std::uint64_t s = 0; s < hw; ++s) {
        const std::uint64_t nchw = (b * c + ci) * hw + s, nhwc = (b * hw + s) * c + ci;
        const std::uint64_t from = toNhwc ? nchw : nhwc, to = toNhwc ? nhwc : nchw;
        std::memcpy(a.dst.ptr + to * es, src.data() + from * es, es);
      }
  const std::uint64_t elements = n * c * hw;
  vecRecordOp(a.api, loc, a.dt, es, elements, static_cast<std::uint32_t>((bytes + 255) / 256), ops, count);
}

}  // namespace kwb_sim
