// SPDX-License-Identifier: MIT
#pragma once
// Host-side helpers of SoftMax / SimpleSoftMax (kwb_sim/math_softmax.h): the temporary-buffer range and
// SoftMaxTilingFunc, with the reference's rules for the 910B/310P parts. The shape is read as [m, k]:
// k the last axis, m the product of the others. The rows one pass handles (splitM) are as many as the
// work space holds, a multiple of 8 when that is below m, and a divisor of m under 16 K elements for
// basic-block shapes (m a multiple of 8, k of 64).

#include <algorithm>
#include <cstdint>

#include "kwb_op/ge_types.h"
#include "kwb_sim/math_softmax.h"

namespace AscendC {

inline void kwbSoftMaxShape(const ge::Shape& srcShape, uint32_t& m, uint32_t& k) {
  const int64_t total = srcShape.GetShapeSize();
  const size_t dims = srcShape.GetDimNum();
  const int64_t last = dims > 0 ? srcShape.GetDim(dims - 1) : 0;
  k = last > 0 ? static_cast<uint32_t>(last) : 0;
  m = last > 0 && total > 0 ? static_cast<uint32_t>(total / last) : 0;
}

inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
  (void)isReuseSource;
  uint32_t m = 0, k = 0;
  kwbSoftMaxShape(srcShape, m, k);
  if (m == 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return 0;
  return kwb_sim::softMaxMinTmpBytes(k, dataTypeSize);
}
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
  (void)isReuseSource;
  uint32_t m = 0, k = 0;
  kwbSoftMaxShape(srcShape, m, k);
  if (m == 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return 0;
  return kwb_sim::softMaxMaxTmpBytes(m, k, dataTypeSize);
}

inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxTiling) {
  uint32_t m = 0, k = 0;
  kwbSoftMaxShape(srcShape, m, k);
  if (m == 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return;
  constexpr uint32_t kRowsPerTile = 8, kUnit = 64, kMaxBasic = 64 * 256;
  const uint32_t perBlock = 32 / dataTypeSize;
  const uint32_t rowFloats = perBlock + k + kUnit;
  uint32_t baseM = std::min(localWorkSpaceSize / 4 / rowFloats, m);
  if (baseM < m && baseM > kRowsPerTile) baseM = baseM / kRowsPerTile * kRowsPerTile;
  if (baseM > kRowsPerTile && m % kRowsPerTile == 0 && k % kUnit == 0) {
    baseM = baseM / kRowsPerTile * kRowsPerTile;
    while (m % baseM != 0) baseM -= kRowsPerTile;
    while (baseM * k >= kMaxBasic) baseM /= 2;
  }
  softmaxTiling.set_srcM(m);
  softmaxTiling.set_srcK(k);
  softmaxTiling.set_srcSize(m * k);
  softmaxTiling.set_outMaxM(m);
  softmaxTiling.set_outMaxK(perBlock);
  softmaxTiling.set_outMaxSize(m * perBlock);
  softmaxTiling.set_splitM(baseM);
  softmaxTiling.set_splitK(k);
  softmaxTiling.set_splitSize(baseM * k);
  softmaxTiling.set_reduceM(baseM);
  softmaxTiling.set_reduceK(perBlock);
  softmaxTiling.set_reduceSize(baseM * perBlock);
  const uint32_t tail = baseM != 0 ? m % baseM : 0;
  softmaxTiling.set_rangeM(baseM != 0 ? m / baseM : 0);
  softmaxTiling.set_tailM(tail);
  softmaxTiling.set_tailSplitSize(tail * k);
  softmaxTiling.set_tailReduceSize(tail * perBlock);
}

}  // namespace AscendC
