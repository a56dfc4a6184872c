// SPDX-License-Identifier: MIT
#pragma once
// Host-side helpers of RmsNorm (kwb_sim/math_rmsnorm.h): GetRmsNormMaxMinTmpSize and
// GetRmsNormTilingInfo with the reference's rules for these parts. Shapes are [B, S, H]; H * typeSize
// must be 32-byte aligned and the original shape's B and S equal, its H not larger. One pass handles as
// many rows as the stack buffer holds (at most 255; a multiple of 8 for basic blocks).

#include <cstdint>

#include "kwb_op/ge_types.h"
#include "kwb_sim/math_rmsnorm.h"

namespace AscendC {

inline bool kwbRmsNormBasicBlockOk(uint32_t b, uint32_t s, uint32_t h) {
  return h % 64 == 0 && (b * s) % 8 == 0 && h < 2048;
}

inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
  if (srcShape.GetDimNum() != 3 || (typeSize != 2 && typeSize != 4)) return false;
  const auto b = static_cast<uint32_t>(srcShape.GetDim(0)), s = static_cast<uint32_t>(srcShape.GetDim(1)),
             h = static_cast<uint32_t>(srcShape.GetDim(2));
  if (isBasicBlock && !kwbRmsNormBasicBlockOk(b, s, h)) return false;
  maxValue = kwb_sim::rmsNormMaxTmpBytes(b, s, h, typeSize);
  minValue = kwb_sim::rmsNormMinTmpBytes(h, typeSize);
  return true;
}

inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  if (srcShape.GetDimNum() != 3 || originSrcShape.GetDimNum() != 3 || (typeSize != 2 && typeSize != 4))
    return false;
  const auto b = static_cast<uint32_t>(srcShape.GetDim(0)), s = static_cast<uint32_t>(srcShape.GetDim(1)),
             h = static_cast<uint32_t>(srcShape.GetDim(2));
  const auto oriH = static_cast<uint32_t>(originSrcShape.GetDim(2));
  if (static_cast<uint32_t>(originSrcShape.GetDim(0)) != b ||
      static_cast<uint32_t>(originSrcShape.GetDim(1)) != s || h < oriH || oriH == 0 ||
      (h * typeSize) % 32 != 0)
    return false;
  if (isBasicBlock && !kwbRmsNormBasicBlockOk(b, s, h)) return false;
  if (stackBufferByteSize < kwb_sim::rmsNormMinTmpBytes(h, typeSize)) return false;
  tiling.set_bLength(b);
  tiling.set_sLength(s);
  tiling.set_hLength(h);
  tiling.set_originalHLength(oriH);
  tiling.set_reciprocalOfHLength(1.0f / static_cast<float>(oriH));
  const uint32_t totalFloats = stackBufferByteSize / 4;
  const uint32_t coeff = typeSize == 4 ? 1u : 2u;
  auto align8 = [](uint32_t v) { return (v + 7) / 8 * 8; };
  uint32_t bs = 1;
  while (totalFloats >= (bs + 1) * h * coeff + align8(bs + 1)) ++bs;
  const uint32_t input = b * s * h;
  uint32_t oneTmp = bs * h;
  if (oneTmp > input) oneTmp = input;
  bs = oneTmp / h;
  if (isBasicBlock)
    bs = bs < 8 ? bs : bs / 8 * 8;
  else if (bs > 255)
    bs = 255;
  oneTmp = bs * h;
  tiling.set_mainBshLength(oneTmp);
  tiling.set_mainBsLength(bs);
  tiling.set_mainBsLengthAlign(align8(bs));
  tiling.set_loopRound(oneTmp ? input / oneTmp : 0);
  const uint32_t tail = oneTmp ? input % oneTmp : 0;
  tiling.set_tailBshLength(tail);
  tiling.set_inputTailPos(input - tail);
  tiling.set_tailBsLength(tail / h);
  return true;
}

}  // namespace AscendC
