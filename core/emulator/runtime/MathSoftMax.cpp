// SPDX-License-Identifier: MIT
// SoftMax / SimpleSoftMax (kwb_sim/math_softmax.h), ND format. Values are computed as the library does
// on the vector unit: in float (half data is cast in and out), row max, exp(x - max), row sum, one
// division; the row max and sum are written broadcast over one 32-byte block per row. The temporary
// buffer's minimum and the tiling helpers follow the reference's SoftMax tiling for the 910B/310P parts:
// (32 / sizeof(stat) + k + 64) floats at least, srcM times that at most (docs/emulator.md, "SoftMax").
// The trace holds the vector instructions the library runs, so the cost model charges their work.

#include <cmath>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/math_softmax.h"

namespace kwb_sim {

namespace {

constexpr std::uint32_t kBlockBytes = 32;
constexpr std::uint32_t kBasicUnit = 64;

bool overlaps(const LocalDesc& x, std::uint64_t xLen, const LocalDesc& y, std::uint64_t yLen) {
  if (x.ref.space != y.ref.space) return false;
  const std::uint64_t a = vecOperandOffset(x), b = vecOperandOffset(y);
  return a < b + yLen && b < a + xLen;
}

}  // namespace

std::uint32_t softMaxMinTmpBytes(std::uint32_t srcK, std::uint32_t statTypeSize) {
  const std::uint32_t perBlock = kBlockBytes / (statTypeSize ? statTypeSize : 4);
  return (perBlock + srcK + kBasicUnit) * 4;
}

std::uint32_t softMaxMaxTmpBytes(std::uint32_t srcM, std::uint32_t srcK, std::uint32_t statTypeSize) {
  return srcM * softMaxMinTmpBytes(srcK, statTypeSize);
}

void mathSoftMax(const SoftMaxCall& c, SrcLoc loc) {
  // The shape: the call's SoftMaxShapeInfo, or the tiling's when none is given (all zero).
  const bool fromTiling = c.shape.srcM == 0 && c.shape.srcK == 0;
  const std::uint32_t m = fromTiling ? c.tilingM : c.shape.srcM;
  const std::uint32_t k = fromTiling ? c.tilingK : c.shape.srcK;
  const std::uint32_t es = c.esize, ses = c.statEsize;
  if (m == 0 || k == 0) {
    report(Cat::InvalidParam, c.api, loc, Pipe::V, c.tilingOperand,
           std::string(c.api) + ": the shape is empty (srcM = " + std::to_string(m) + ", srcK = " +
               std::to_string(k) + "); pass a SoftMaxShapeInfo or a tiling filled by SoftMaxTilingFunc");
    return;
  }
  if ((static_cast<std::uint64_t>(k) * es) % kBlockBytes != 0) {
    report(
        Cat::InvalidParam, c.api, loc, Pipe::V, c.tilingOperand,
        std::string(c.api) + ": srcK = " + std::to_string(k) + " elements is " + std::to_string(k * es) +
            " bytes, not a multiple of 32 (the last axis must be 32-byte aligned; pad it and pass oriSrcK)");
    return;
  }
  if (c.tilingK != k || c.tilingM != m || c.tilingSplitM == 0)
    report(Cat::InvalidParam, c.api, loc, Pipe::V, c.tilingOperand,
           std::string(c.api) + ": the SoftMaxTiling describes [" + std::to_string(c.tilingM) + ", " +
               std::to_string(c.tilingK) + "] with splitM = " + std::to_string(c.tilingSplitM) +
               ", but the call computes [" + std::to_string(m) + ", " + std::to_string(k) +
               "]; compute the tiling with SoftMaxTilingFunc for this shape");
  const std::uint32_t minTmp = softMaxMinTmpBytes(k, ses);
  if (c.hasTmp && c.tmpBytes < minTmp)
    report(Cat::InvalidParam, c.api, loc, Pipe::V, c.tmpOperand,
           std::string(c.api) + ": sharedTmpBuffer holds " + std::to_string(c.tmpBytes) +
               " bytes, less than the " + std::to_string(minTmp) +
               " bytes GetSoftMaxMinTmpSize gives for srcK = " + std::to_string(k) +
               "; the library's intermediate rows overrun it on hardware");
  const std::uint64_t bytes = static_cast<std::uint64_t>(m) * k * es;
  const std::uint32_t statPer = kBlockBytes / ses;
  const std::uint64_t statBytes = static_cast<std::uint64_t>(m) * kBlockBytes;
  VecOperand ops[5];
  int n = 0;
  ops[n].desc = &c.src;
  ops[n].read = true;
  ops[n].operand = c.withStats ? 3 : 1;
  ops[n++].span = bytes;
  if (c.withStats) {
    ops[n].desc = &c.sum;
    ops[n].read = c.simple;
    ops[n].write = !c.simple;
    ops[n].operand = 1;
    ops[n++].span = statBytes;
    ops[n].desc = &c.max;
    ops[n].read = c.simple;
    ops[n].write = !c.simple;
    ops[n].operand = 2;
    ops[n++].span = statBytes;
  }
  ops[n].desc = &c.dst;
  ops[n].write = true;
  ops[n].operand = 0;
  ops[n++].span = bytes;
  if (c.hasTmp && c.tmpBytes > 0) {
    const std::uint32_t maxTmp = softMaxMaxTmpBytes(m, k, ses);
    ops[n].desc = &c.tmp;
    ops[n].read = ops[n].write = true;
    ops[n].operand = c.tmpOperand;
    ops[n++].span = c.tmpBytes < maxTmp ? c.tmpBytes : maxTmp;
    if (overlaps(c.tmp, c.tmpBytes, c.src, bytes) || overlaps(c.tmp, c.tmpBytes, c.dst, bytes))
      report(Cat::InvalidParam, c.api, loc, Pipe::V, c.tmpOperand,
             std::string(c.api) + ": sharedTmpBuffer overlaps the source or the destination (not allowed)");
  }
  if (!vecCheckOperands(c.api, loc, ops, n)) {
    vecRecordOp(c.api, loc, c.dt, es, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands(c.api, loc, ops, n);
  // Row by row in float, reading the whole row (and the inputs of SimpleSoftMax) before writing.
  std::vector<float> row(k);
  for (std::uint32_t r = 0; r < m; ++r) {
    const std::uint8_t* in = c.src.ptr + static_cast<std::uint64_t>(r) * k * es;
    for (std::uint32_t j = 0; j < k; ++j)
      row[j] = static_cast<float>(loadAsDouble(c.dt, in + static_cast<std::uint64_t>(j) * es));
    float mx = 0, sum = 0;
    if (c.simple) {
      mx =
          static_cast<float>(loadAsDouble(c.statDt, c.max.ptr + static_cast<std::uint64_t>(r) * kBlockBytes));
      sum =
          static_cast<float>(loadAsDouble(c.statDt, c.sum.ptr + static_cast<std::uint64_t>(r) * kBlockBytes));
      for (std::uint32_t j = 0; j < k; ++j) row[j] = std::exp(row[j] - mx);
    } else {
      mx = row[0];
      for (std::uint32_t j = 1; j < k; ++j) mx = row[j] > mx ? row[j] : mx;
      for (std::uint32_t j = 0; j < k; ++j) {
        row[j] = std::exp(row[j] - mx);
        sum += row[j];
      }
    }
    std::uint8_t* out = c.dst.ptr + static_cast<std::uint64_t>(r) * k * es;
    for (std::uint32_t j = 0; j < k; ++j)
      storeFromDouble(c.dt, out + static_cast<std::uint64_t>(j) * es, row[j] / sum);
    if (c.withStats && !c.simple)
      for (std::uint32_t e = 0; e < statPer; ++e) {
        storeFromDouble(
            c.statDt,
            c.max.ptr + static_cast<std::uint64_t>(r) * kBlockBytes + static_cast<std::uint64_t>(e) * ses,
            mx);
        storeFromDouble(
            c.statDt,
            c.sum.ptr + static_cast<std::uint64_t>(r) * kBlockBytes + static_cast<std::uint64_t>(e) * ses,
            sum);
      }
  }
  // The library's vector steps, in float over the whole [m, k] (rows of the reductions: m repeats).
  const std::uint64_t elems = static_cast<std::uint64_t>(m) * k;
  const auto reps = static_cast<std::uint32_t>((elems * 4 + 255) / 256);
  if (c.dt != DType::F32) vecRecordOp("Cast", loc, DType::F32, 4, elems, reps, ops, n);
  if (!c.simple) {
    vecRecordOp("WholeReduceMax", loc, DType::F32, 4, elems, reps, ops, n);
    vecRecordOp("Brcb", loc, DType::F32, 4, static_cast<std::uint64_t>(m) * 8, (m + 7) / 8, ops, n);
  }
  vecRecordOp("Sub", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("Exp", loc, DType::F32, 4, elems, reps, ops, n);
  if (!c.simple) {
    vecRecordOp("WholeReduceSum", loc, DType::F32, 4, elems, reps, ops, n);
    vecRecordOp("Brcb", loc, DType::F32, 4, static_cast<std::uint64_t>(m) * 8, (m + 7) / 8, ops, n);
  }
  vecRecordOp("Div", loc, DType::F32, 4, elems, reps, ops, n);
  if (c.dt != DType::F32) vecRecordOp("Cast", loc, c.dt, es, elems, reps, ops, n);
}

}  // namespace kwb_sim
