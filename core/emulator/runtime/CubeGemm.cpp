// SPDX-License-Identifier: MIT
// Dense products of the cube unit with Eigen (header-only, compiled into the runtime once, -O2).

#include "CubeGemm.h"

#include <Eigen/Core>

namespace kwb_sim::rt {

namespace {
template <typename T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
}  // namespace

void gemmAccumulateF32(const float* a, const float* b, float* c, int m, int n, int k) {
  const Eigen::Map<const RowMajor<float>> ma(a, m, k);
  const Eigen::Map<const RowMajor<float>> mb(b, k, n);
  Eigen::Map<RowMajor<float>> mc(c, m, n);
  mc.noalias() += ma * mb;
}

void gemmAccumulateI32(const std::int32_t* a, const std::int32_t* b, std::int32_t* c, int m, int n, int k) {
  // int8 x int8 products summed over k <= 4095 stay below 2^31 (127 * 128 * 4095 < 2^26), so the int32
  // sum is exact and independent of the order.
  const Eigen::Map<const RowMajor<std::int32_t>> ma(a, m, k);
  const Eigen::Map<const RowMajor<std::int32_t>> mb(b, k, n);
  Eigen::Map<RowMajor<std::int32_t>> mc(c, m, n);
  mc.noalias() += ma * mb;
}

}  // namespace kwb_sim::rt
