// SPDX-License-Identifier: MIT
#pragma once
// The cube's dense products, computed with Eigen's blocked GEMM (docs/emulator.md, "Cube unit (issue
// 14)": fp32 accumulation as in L0C, a different summation order than the device's).

#include <cstdint>

namespace kwb_sim::rt {

// c[m x n] += a[m x k] * b[k x n], all row-major, float accumulation.
void gemmAccumulateF32(const float* a, const float* b, float* c, int m, int n, int k);
// The same in int32 (int8 inputs widened; wrapping as the device's int32 accumulator).
void gemmAccumulateI32(const std::int32_t* a, const std::int32_t* b, std::int32_t* c, int m, int n, int k);

}  // namespace kwb_sim::rt
