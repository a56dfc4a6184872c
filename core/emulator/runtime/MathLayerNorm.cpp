// SPDX-License-Identifier: MIT
// LayerNorm, [B, S, H] form (kwb_sim/math_layernorm.h). Computed in float as the library does on the
// vector unit (half data cast in and out): per row of H, the mean as the sum of x * lastDimValueBack, the
// variance as the sum of (x - mean)^2 * lastDimValueBack over all hLength columns, then
// (x - mean) / sqrt(variance + epsilon) * gamma + beta. The temporary-buffer sizes follow the reference's
// LayerNorm tiling (docs/emulator.md, "Supported API", the LayerNorm row). The trace holds the library's
// vector steps.

#include <cmath>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/math_layernorm.h"

namespace kwb_sim {

namespace {

std::uint32_t alignBlock(std::uint32_t bytes) {
  return (bytes + 31) / 32 * 32;
}

bool overlaps(const LocalDesc& x, std::uint64_t xLen, const LocalDesc& y, std::uint64_t yLen) {
  if (x.ref.space != y.ref.space) return false;
  const std::uint64_t a = vecOperandOffset(x), b = vecOperandOffset(y);
  return a < b + yLen && b < a + xLen;
}

// Argument positions of the two forms (with sharedTmpBuffer, the epsilon and tiling move by one).
constexpr int kOut = 0, kMean = 1, kVariance = 2, kX = 3, kGamma = 4, kBeta = 5, kTmp = 6;

}  // namespace

std::uint32_t layerNormMinTmpBytes(std::uint32_t b, std::uint32_t s, std::uint32_t h, std::uint32_t typeSize,
                                   bool reuseSource) {
  const std::uint32_t buffers = reuseSource && typeSize == 4 ? 2 : 3;
  return buffers * alignBlock(h * 4) + 2 * alignBlock(b * s * 4);
}

std::uint32_t layerNormMaxTmpBytes(std::uint32_t b, std::uint32_t s, std::uint32_t h, std::uint32_t typeSize,
                                   bool reuseSource) {
  const std::uint32_t buffers = reuseSource && typeSize == 4 ? 2 : 3;
  return buffers * alignBlock(b * s * h * 4) + 2 * alignBlock(b * s * 4);
}

void mathLayerNorm(const LayerNormCall& c, SrcLoc loc) {
  const char* api = "LayerNorm";
  const std::uint32_t es = c.esize;
  const int tilingArg = c.hasTmp ? 8 : 7;
  const std::uint64_t rows = static_cast<std::uint64_t>(c.b) * c.s;
  if (rows == 0 || c.h == 0 || c.originalH == 0) {
    report(Cat::InvalidParam, api, loc, Pipe::V, tilingArg,
           "LayerNorm: the tiling's shape is empty (bLength = " + std::to_string(c.b) +
               ", sLength = " + std::to_string(c.s) + ", hLength = " + std::to_string(c.h) +
               ", originalHLength = " + std::to_string(c.originalH) +
               "); fill it with GetLayerNormNDTilingInfo from a {B, S, H, originH} shape and a stack buffer "
               "of at least GetLayerNormMaxMinTmpSize's minimum");
    return;
  }
  if ((static_cast<std::uint64_t>(c.h) * es) % 32 != 0) {
    report(Cat::InvalidParam, api, loc, Pipe::V, tilingArg,
           "LayerNorm: hLength = " + std::to_string(c.h) + " elements is not 32-byte aligned (" +
               std::to_string(c.h * es) +
               " bytes); pad H with zeros and keep the original length in the "
               "shape's originHLength");
    return;
  }
  if (c.originalH > c.h)
    report(Cat::InvalidParam, api, loc, Pipe::V, tilingArg,
           "LayerNorm: originalHLength = " + std::to_string(c.originalH) +
               " exceeds hLength = " + std::to_string(c.h) + " (the original H is the unpadded length)");
  if (c.reuseSource && es != 4)
    report(Cat::InvalidParam, api, loc, Pipe::V, kX,
           "LayerNorm: isReuseSource = true is supported for float input only, this call has half input");
  if (c.gammaElems < c.h || c.betaElems < c.h)
    report(Cat::InvalidParam, api, loc, Pipe::V, c.gammaElems < c.h ? kGamma : kBeta,
           std::string("LayerNorm: ") + (c.gammaElems < c.h ? "gamma" : "beta") + " holds " +
               std::to_string(c.gammaElems < c.h ? c.gammaElems : c.betaElems) +
               " elements, fewer than hLength = " + std::to_string(c.h));
  if (c.meanElems < rows || c.varianceElems < rows)
    report(Cat::InvalidParam, api, loc, Pipe::V, c.meanElems < rows ? kMean : kVariance,
           std::string("LayerNorm: ") + (c.meanElems < rows ? "outputMean" : "outputVariance") + " holds " +
               std::to_string(c.meanElems < rows ? c.meanElems : c.varianceElems) +
               " elements, fewer than B * S = " + std::to_string(rows));
  const std::uint32_t minTmp = layerNormMinTmpBytes(c.b, c.s, c.h, es, c.reuseSource);
  if (c.hasTmp) {
    if (c.tmpBytes < minTmp)
      report(Cat::InvalidParam, api, loc, Pipe::V, kTmp,
             "LayerNorm: sharedTmpBuffer holds " + std::to_string(c.tmpBytes) + " bytes, less than the " +
                 std::to_string(minTmp) + " bytes GetLayerNormMaxMinTmpSize gives as the minimum for [" +
                 std::to_string(c.b) + ", " + std::to_string(c.s) + ", " + std::to_string(c.h) +
                 "]; the library's intermediate rows overrun it on hardware");
    else if (c.tmpBytes < static_cast<std::uint64_t>(c.tmpBufFloats) * 4)
      report(
          Cat::InvalidParam, api, loc, Pipe::V, kTmp,
          "LayerNorm: sharedTmpBuffer holds " + std::to_string(c.tmpBytes) +
              " bytes, less than the stack buffer of " + std::to_string(c.tmpBufFloats * 4) +
              " bytes the tiling was computed for (GetLayerNormNDTilingInfo's stackBufferSize); its passes "
              "overrun the buffer on hardware");
  }
  const std::uint64_t bytes = rows * c.h * es;
  const std::uint64_t rowBytes = static_cast<std::uint64_t>(c.h) * es;
  const std::uint64_t statBytes = rows * es;
  const LocalDesc* inputs[3] = {&c.x, &c.gamma, &c.beta};
  const std::uint64_t inputLens[3] = {bytes, rowBytes, rowBytes};
  static const char* const kInputNames[3] = {"inputX", "gamma", "beta"};
  bool reportedOverlap = false;
  for (int i = 0; i < 3 && !reportedOverlap; ++i) {
    if (i > 0 && overlaps(c.out, bytes, *inputs[i], inputLens[i])) {
      reportedOverlap = true;
      report(Cat::InvalidParam, api, loc, Pipe::V, kOut,
             std::string("LayerNorm: output overlaps ") + kInputNames[i] +
                 " (only output and inputX may share memory)");
    } else if (overlaps(c.mean, statBytes, *inputs[i], inputLens[i]) ||
               overlaps(c.variance, statBytes, *inputs[i], inputLens[i])) {
      reportedOverlap = true;
      report(Cat::InvalidParam, api, loc, Pipe::V,
             overlaps(c.mean, statBytes, *inputs[i], inputLens[i]) ? kMean : kVariance,
             std::string("LayerNorm: ") +
                 (overlaps(c.mean, statBytes, *inputs[i], inputLens[i]) ? "outputMean" : "outputVariance") +
                 " overlaps " + kInputNames[i] + " (only output and inputX may share memory)");
    }
  }
  VecOperand ops[7];
  int n = 0;
  auto add = [&](const LocalDesc& d, int operand, std::uint64_t span, bool read, bool write) {
    ops[n].desc = &d;
    ops[n].read = read;
    ops[n].write = write;
    ops[n].operand = operand;
    ops[n++].span = span;
  };
  add(c.x, kX, bytes, true, false);
  add(c.gamma, kGamma, rowBytes, true, false);
  add(c.beta, kBeta, rowBytes, true, false);
  add(c.out, kOut, bytes, false, true);
  add(c.mean, kMean, statBytes, false, true);
  add(c.variance, kVariance, statBytes, false, true);
  if (c.hasTmp && c.tmpBytes > 0) {
    const std::uint32_t maxTmp = layerNormMaxTmpBytes(c.b, c.s, c.h, es, c.reuseSource);
    add(c.tmp, kTmp, c.tmpBytes < maxTmp ? c.tmpBytes : maxTmp, true, true);
  }
  if (!vecCheckOperands(api, loc, ops, n)) {
    vecRecordOp(api, loc, c.dt, es, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands(api, loc, ops, n);
  std::vector<float> gamma(c.h), beta(c.h), row(c.h);
  for (std::uint32_t j = 0; j < c.h; ++j) {
    gamma[j] = static_cast<float>(loadAsDouble(c.dt, c.gamma.ptr + static_cast<std::uint64_t>(j) * es));
    beta[j] = static_cast<float>(loadAsDouble(c.dt, c.beta.ptr + static_cast<std::uint64_t>(j) * es));
  }
  const auto eps = static_cast<float>(c.epsilon);
  const float back = c.lastDimValueBack;
  for (std::uint64_t r = 0; r < rows; ++r) {
    const std::uint8_t* in = c.x.ptr + r * rowBytes;
    float mean = 0;
    for (std::uint32_t j = 0; j < c.h; ++j) {
      row[j] = static_cast<float>(loadAsDouble(c.dt, in + static_cast<std::uint64_t>(j) * es));
      mean += row[j] * back;
    }
    float variance = 0;
    for (std::uint32_t j = 0; j < c.h; ++j) {
      const float d = row[j] - mean;
      variance += d * d * back;
    }
    const float rstd = 1.0f / std::sqrt(variance + eps);
    std::uint8_t* out = c.out.ptr + r * rowBytes;  // may be inputX itself: row[] holds the inputs
    for (std::uint32_t j = 0; j < c.h; ++j)
      storeFromDouble(c.dt, out + static_cast<std::uint64_t>(j) * es,
                      (row[j] - mean) * rstd * gamma[j] + beta[j]);
    storeFromDouble(c.dt, c.mean.ptr + r * es, mean);
    storeFromDouble(c.dt, c.variance.ptr + r * es, variance);
  }
  const std::uint64_t elems = rows * c.h;
  const auto reps = static_cast<std::uint32_t>((elems * 4 + 255) / 256);
  const auto rowReps = static_cast<std::uint32_t>((rows + 63) / 64);
  if (c.dt != DType::F32) vecRecordOp("Cast", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("Muls", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("ReduceSum", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("Brcb", loc, DType::F32, 4, rows * 8, static_cast<std::uint32_t>((rows + 7) / 8), ops, n);
  vecRecordOp("Sub", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("Mul", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("Muls", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("ReduceSum", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("Adds", loc, DType::F32, 4, rows, rowReps, ops, n);
  vecRecordOp("Ln", loc, DType::F32, 4, rows, rowReps, ops, n);
  vecRecordOp("Muls", loc, DType::F32, 4, rows, rowReps, ops, n);
  vecRecordOp("Exp", loc, DType::F32, 4, rows, rowReps, ops, n);
  vecRecordOp("Brcb", loc, DType::F32, 4, rows * 8, static_cast<std::uint32_t>((rows + 7) / 8), ops, n);
  vecRecordOp("Mul", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("Mul", loc, DType::F32, 4, elems, reps, ops, n);
  vecRecordOp("Add", loc, DType::F32, 4, elems, reps, ops, n);
  if (c.dt != DType::F32) {
    vecRecordOp("Cast", loc, c.dt, es, elems, reps, ops, n);
    vecRecordOp("Cast", loc, c.dt, es, rows * 2, rowReps, ops, n);
  }
}

}  // namespace kwb_sim
