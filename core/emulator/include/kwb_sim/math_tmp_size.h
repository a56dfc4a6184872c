// SPDX-License-Identifier: MIT
#pragma once
// Host-side temporary-buffer size helpers of the activation functions (kwb_sim/math_activation.h): the
// range [minValue, maxValue] of bytes a sharedTmpBuffer may have. The kernel-side call checks the
// buffer it gets against the same minimum.

#include <cstdint>

#include "kwb_op/ge_types.h"
#include "kwb_sim/math_activation.h"

namespace AscendC {

inline void kwbMathTmpRange(kwb_sim::MathOp op, const ge::Shape& srcShape, const uint32_t typeSize,
                            uint32_t& maxValue, uint32_t& minValue) {
  const int64_t n = srcShape.GetShapeSize();
  minValue = kwb_sim::mathMinTmpBytes(op, typeSize);
  maxValue = kwb_sim::mathMaxTmpBytes(op, typeSize, n > 0 ? static_cast<uint64_t>(n) : 0);
}
inline void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  kwbMathTmpRange(kwb_sim::MathOp::Sigmoid, srcShape, typeSize, maxValue, minValue);
}
inline void GetTanhMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool isReuseSource,
                                 uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  kwbMathTmpRange(kwb_sim::MathOp::Tanh, srcShape, typeSize, maxValue, minValue);
}
inline void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  kwbMathTmpRange(kwb_sim::MathOp::Silu, srcShape, typeSize, maxValue, minValue);
}
inline void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
  kwbMathTmpRange(kwb_sim::MathOp::Gelu, srcShape, typeSize, maxValue, minValue);
}

}  // namespace AscendC
