// SPDX-License-Identifier: MIT
// RmsNorm (kwb_sim/math_rmsnorm.h). Computed in float as the library does on the vector unit (half data
// cast in and out): per row of H, the sum of squares times reciprocalOfHLength, plus epsilon, its
// reciprocal square root, times src and gamma. The temporary-buffer sizes follow the reference's RmsNorm
// tiling for these parts (docs/emulator.md, "RmsNorm"). The trace holds the library's vector steps.

#include <cmath>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/math_rmsnorm.h"

namespace kwb_sim {

namespace {

bool overlaps(const LocalDesc& x, std::uint64_t xLen, const LocalDesc& y, std::uint64_t yLen) {
  if (x.ref.space != y.ref.space) return false;
  const std::uint64_t a = vecOperandOffset(x), b = vecOperandOffset(y);
  return a < b + yLen && b < a + xLen;
}

}  // namespace

std::uint32_t rmsNormMinTmpBytes(std::uint32_t h, std::uint32_t typeSize) {
  return (h * (typeSize == 2 ? 2 : 1) + 8) * 4;
}

std::uint32_t rmsNormMaxTmpBytes(std::uint32_t b, std::uint32_t s, std::uint32_t h, std::uint32_t typeSize) {
  const std::uint32_t unit = 32 / typeSize;
  const std::uint32_t bs = (b * s + unit - 1) / unit * unit;
  return (b * s * h * (typeSize == 2 ? 2 : 1) + bs) * 4;
}

void mathRmsNorm(const RmsNormCall& c, SrcLoc loc) {
  const char* api = "RmsNorm";
  const std::uint32_t es = c.esize;
  const std::uint64_t rows = static_cast<std::uint64_t>(c.b) * c.s;
  if (rows == 0 || c.h == 0) {
    report(Cat::InvalidParam, api, loc, Pipe::V, c.hasTmp ? 5 : 4,
           "RmsNorm: the tiling's shape is empty (bLength = " + std::to_string(c.b) +
               ", sLength = " + std::to_string(c.s) + ", hLength = " + std::to_string(c.h) +
               "); fill it with GetRmsNormTilingInfo");
    return;
  }
  if ((static_cast<std::uint64_t>(c.h) * es) % 32 != 0) {
    report(Cat::InvalidParam, api, loc, Pipe::V, c.hasTmp ? 5 : 4,
           "RmsNorm: hLength = " + std::to_string(c.h) + " elements is not 32-byte aligned (" +
               std::to_string(c.h * es) + " bytes); pad H and keep the original length in originSrcShape");
    return;
  }
  if (c.gammaElems < c.h)
    report(Cat::InvalidParam, api, loc, Pipe::V, 2,
           "RmsNorm: gamma holds " + std::to_string(c.gammaElems) +
               " elements, fewer than hLength = " + std::to_string(c.h));
  const std::uint32_t minTmp = rmsNormMinTmpBytes(c.h, es);
  if (c.hasTmp && c.tmpBytes < minTmp)
    report(Cat::InvalidParam, api, loc, Pipe::V, 3,
           "RmsNorm: sharedTmpBuffer holds " + std::to_string(c.tmpBytes) + " bytes, less than the " +
               std::to_string(minTmp) + " bytes GetRmsNormMaxMinTmpSize gives as the minimum for hLength = " +
               std::to_string(c.h) + "; the library's intermediate rows overrun it on hardware");
  const std::uint64_t bytes = rows * c.h * es;
  const std::uint64_t gammaBytes = static_cast<std::uint64_t>(c.h) * es;
  if (overlaps(c.dst, bytes, c.gamma, gammaBytes))
    report(Cat::InvalidParam, api, loc, Pipe::V, 0,
           "RmsNorm: the destination overlaps gamma (the reference does not allow reusing gamma's space)");
  VecOperand ops[4];
  int n = 0;
  ops[n].desc = &c.src;
  ops[n].read = true;
  ops[n].operand = 1;
  ops[n++].span = bytes;
  ops[n].desc = &c.gamma;
  ops[n].read = true;
  ops[n].operand = 2;
  ops[n++].span = gammaBytes;
  ops[n].desc = &c.dst;
  ops[n].write = true;
  ops[n].operand = 0;
  ops[n++].span = bytes;
  if (c.hasTmp && c.tmpBytes > 0) {
    const std::uint32_t maxTmp = rmsNormMaxTmpBytes(c.b, c.s, c.h, es);
    ops[n].desc = &c.tmp;
    ops[n].read = ops[n].write = true;
    ops[n].operand = 3;
    ops[n++].span = c.tmpBytes < maxTmp ? c.tmpBytes : maxTmp;
  }
  if (!vecCheckOperands(api, loc, ops, n)) {
    vecRecordOp(api, loc, c.dt, es, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands(api, loc, ops, n);
  std::vector<float> gamma(c.h), row(c.h);
  for (std::uint32_t j = 0; j < c.h; ++j)
    gamma[j] = static_cast<float>(loadAsDouble(c.dt, c.gamma.ptr + static_cast<std::uint64_t>(j) * es));
  const auto eps = static_cast<float>(c.epsilon);
  for (std::uint64_t r = 0; r < rows; ++r) {
    const std::uint8_t* in = c.src.ptr + r * c.h * es;
    float sq = 0;
    for (std::uint32_t j = 0; j < c.h; ++j) {
      row[j] = static_cast<float>(loadAsDouble(c.dt, in + static_cast<std::uint64_t>(j) * es));
      sq += row[j] * row[j];
    }
    const float scale = 1.0f / std::sqrt(sq * c.reciprocalOfH + eps);
    std::uint8_t* out = c.dst.ptr + r * c.h * es;
    for (std::uint32_t j = 0; j < c.h; ++j)
      storeFromDouble(c.dt, out + static_cast<std::uint64_t>(j) * es, row[j] * scale * gamma[j]);
  }
  const std::uint64_t elems = rows * c.h;
  const auto reps = static_cast<std::uint32_t>((elems * 4 + 255) / 256);
  if (c.dt != DType::F32) vecRecordOp("Cast", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("Mul", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("WholeReduceSum", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("Muls", loc, DType::F32, 4, rows, static_cast<std::uint32_t>((rows + 63) / 64), ops, n);
  vecRecordOp("Adds", loc, DType::F32, 4, rows, static_cast<std::uint32_t>((rows + 63) / 64), ops, n);
  vecRecordOp("Rsqrt", loc, DType::F32, 4, rows, static_cast<std::uint32_t>((rows + 63) / 64), ops, n);
  vecRecordOp("Brcb", loc, DType::F32, 4, rows * 8, static_cast<std::uint32_t>((rows + 7) / 8), ops, n);
  vecRecordOp("Mul", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("Mul", loc, DType::F32, 4, elems, reps, ops, n);
  if (c.dt != DType::F32) vecRecordOp("Cast", loc, c.dt, es, elems, reps, ops, n);
}

}  // namespace kwb_sim
