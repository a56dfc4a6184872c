// SPDX-License-Identifier: MIT
#pragma once
// Host-side helpers of LayerNorm (kwb_sim/math_layernorm.h): GetLayerNormMaxMinTmpSize and
// GetLayerNormNDTilingInfo for the [B, S, H] form with the reference's rules for these parts. The shape
// is {B, S, storageHLength, originHLength}; the stack buffer is split into numberOfTmpBuf float buffers
// of whole rows (after the mean and variance scratch, which half data needs), and a pass covers as many
// rows as one buffer holds. A shape that is not 4-D or a type size other than 2 or 4 leaves the outputs
// untouched, as does a stack buffer too small for one row (the kernel then reports the empty tiling).

#include <cstdint>
#include <vector>

#include "kwb_op/ge_types.h"
#include "kwb_sim/math_layernorm.h"

namespace AscendC {

inline bool kwbLayerNormShapeOk(const ge::Shape& srcShape, const uint32_t typeSize) {
  return srcShape.GetDimNum() == 4 && srcShape.GetShapeSize() > 0 && (typeSize == 2 || typeSize == 4);
}

inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                      const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  if (!kwbLayerNormShapeOk(srcShape, typeSize)) return;
  const auto b = static_cast<uint32_t>(srcShape.GetDim(0)), s = static_cast<uint32_t>(srcShape.GetDim(1)),
             h = static_cast<uint32_t>(srcShape.GetDim(2));
  maxValue = kwb_sim::layerNormMaxTmpBytes(b, s, h, typeSize, isReuseSource);
  minValue = kwb_sim::layerNormMinTmpBytes(b, s, h, typeSize, isReuseSource);
}

inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     optiling::LayerNormTiling& tiling) {
  if (!kwbLayerNormShapeOk(srcShape, typeSize)) return;
  const auto b = static_cast<uint32_t>(srcShape.GetDim(0)), s = static_cast<uint32_t>(srcShape.GetDim(1)),
             h = static_cast<uint32_t>(srcShape.GetDim(2)), oriH = static_cast<uint32_t>(srcShape.GetDim(3));
  if (h == 0) return;
  const uint32_t input = b * s * h, rows = b * s;
  const uint32_t buffers = isReuseSource && typeSize == 4 ? 2u : 3u;
  const uint32_t rowsAligned = (rows + 7) / 8 * 8;  // floats, one 32-byte block = 8
  const uint32_t meanVarFloats = typeSize == 4 ? 0u : 2 * rowsAligned;
  const uint32_t totalFloats = stackBufferSize / 4;
  uint32_t oneTmp = totalFloats > meanVarFloats ? (totalFloats - meanVarFloats) / buffers : 0;
  oneTmp = oneTmp / h * h;
  if (oneTmp > input) oneTmp = input;
  if (oneTmp == 0) return;
  const uint32_t tail = input % oneTmp;
  tiling.set_bLength(b);
  tiling.set_sLength(s);
  tiling.set_hLength(h);
  tiling.set_originalHLength(oriH);
  tiling.set_inputXSize(input);
  tiling.set_meanVarSize(rows);
  tiling.set_numberOfTmpBuf(buffers);
  tiling.set_meanTmpTensorPos(0);
  tiling.set_meanTmpTensorSize(rowsAligned);
  tiling.set_varianceTmpTensorPos(rowsAligned);
  tiling.set_varianceTmpTensorSize(rowsAligned);
  tiling.set_tmpBufSize(totalFloats);
  tiling.set_oneTmpSize(oneTmp);
  tiling.set_firstTmpStartPos(meanVarFloats);
  tiling.set_secondTmpStartPos(meanVarFloats + oneTmp);
  tiling.set_thirdTmpStartPos(meanVarFloats + 2 * oneTmp);
  tiling.set_loopRound(input / oneTmp);
  tiling.set_inputRoundSize(oneTmp);
  tiling.set_inputTailSize(tail);
  tiling.set_inputTailPos(input - tail);
  tiling.set_meanVarRoundSize(oneTmp / h);
  tiling.set_meanVarTailSize(tail / h);
  tiling.set_meanVarTailPos(rows - tail / h);
  tiling.set_bshCurLength(oneTmp);
  tiling.set_bsCurLength(oneTmp / h);
  tiling.set_lastDimValueBack(oriH == 0 ? 0.0f : 1.0f / static_cast<float>(oriH));
}

// The older spelling the reference keeps for compatibility.
inline void GetLayerNormNDTillingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      optiling::LayerNormTiling& tilling) {
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}

}  // namespace AscendC
