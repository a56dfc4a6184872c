// SPDX-License-Identifier: MIT
#pragma once
// LayerNorm of the math library over a [B, S, H] source: along H, mean = sum(x) / originalH,
// variance = sum((x - mean)^2) / originalH, output = (x - mean) / sqrt(variance + epsilon) * gamma + beta,
// with mean and variance written out per row ([B, S]). The 1 / originalH factor is the tiling's
// lastDimValueBack. The caller's sharedTmpBuffer (or the framework's reserved space) must hold at least
// GetLayerNormMaxMinTmpSize's minimum and the tiling's buffer; the LayerNormTiling comes from
// GetLayerNormNDTilingInfo (math_layernorm_tiling.h). The [A, R] form (LayerNormPara, rstd output) is
// not emulated and fails to compile with unsupported-api. docs/emulator.md, "Supported API", the LayerNorm
// row.

#include <cstdint>

#include "kwb_sim/vec_ops.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(uint32_t, inputXSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarSize);
TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf);
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize);
TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize);
TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, meanVarRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos);
TILING_DATA_FIELD_DEF(uint32_t, bshCurLength);
TILING_DATA_FIELD_DEF(uint32_t, bsCurLength);
TILING_DATA_FIELD_DEF(float, lastDimValueBack);
END_TILING_DATA_DEF
}  // namespace optiling

using LayerNormTiling = optiling::LayerNormTiling;
namespace AscendC::tiling {
using LayerNormTiling = optiling::LayerNormTiling;
}  // namespace AscendC::tiling

namespace kwb_sim {

struct LayerNormCall {
  DType dt = DType::None;
  std::uint32_t esize = 0;
  bool reuseSource = false;
  LocalDesc out{nullptr, {}}, mean{nullptr, {}}, variance{nullptr, {}};
  LocalDesc x{nullptr, {}}, gamma{nullptr, {}}, beta{nullptr, {}};
  std::uint64_t gammaElems = 0, betaElems = 0, meanElems = 0, varianceElems = 0;
  bool hasTmp = false;
  LocalDesc tmp{nullptr, {}};
  std::uint64_t tmpBytes = 0;
  double epsilon = 0;
  std::uint32_t b = 0, s = 0, h = 0, originalH = 0, tmpBufFloats = 0;
  float lastDimValueBack = 0;
};
void mathLayerNorm(const LayerNormCall& c, SrcLoc loc);
// GetLayerNormMaxMinTmpSize for the [B, S, H] form (bytes): three (two when a float source may be reused)
// 32-byte aligned float rows of H (min) or of B*S*H (max), plus two aligned float vectors of B*S.
std::uint32_t layerNormMinTmpBytes(std::uint32_t b, std::uint32_t s, std::uint32_t h, std::uint32_t typeSize,
                                   bool reuseSource);
std::uint32_t layerNormMaxTmpBytes(std::uint32_t b, std::uint32_t s, std::uint32_t h, std::uint32_t typeSize,
                                   bool reuseSource);

template <typename T>
LayerNormCall layerNormCall(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<T>& mean,
                            const AscendC::LocalTensor<T>& variance, const AscendC::LocalTensor<T>& x,
                            const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<T>& beta,
                            const AscendC::LocalTensor<std::uint8_t>* tmp, T epsilon,
                            const optiling::LayerNormTiling& tiling, bool reuseSource) {
  LayerNormCall c;
  c.dt = dtypeOf<T>();
  c.esize = sizeof(T);
  c.reuseSource = reuseSource;
  c.out = localDesc(out);
  c.mean = localDesc(mean);
  c.variance = localDesc(variance);
  c.x = localDesc(x);
  c.gamma = localDesc(gamma);
  c.beta = localDesc(beta);
  c.gammaElems = gamma.GetSize();
  c.betaElems = beta.GetSize();
  c.meanElems = mean.GetSize();
  c.varianceElems = variance.GetSize();
  if (tmp) {
    c.hasTmp = true;
    c.tmp = localDesc(*tmp);
    c.tmpBytes = tmp->GetSize();
  }
  c.epsilon = static_cast<double>(static_cast<float>(epsilon));
  c.b = tiling.bLength;
  c.s = tiling.sLength;
  c.h = tiling.hLength;
  c.originalH = tiling.originalHLength;
  c.tmpBufFloats = tiling.tmpBufSize;
  c.lastDimValueBack = tiling.lastDimValueBack;
  return c;
}

}  // namespace kwb_sim

namespace AscendC {

template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const LayerNormTiling& tiling,
               KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("LayerNorm", T, half, float);
  kwb_sim::mathLayerNorm(kwb_sim::layerNormCall(output, outputMean, outputVariance, inputX, gamma, beta,
                                                &sharedTmpBuffer, epsilon, tiling, isReuseSource),
                         loc_);
}
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               const LayerNormTiling& tiling, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("LayerNorm", T, half, float);
  kwb_sim::mathLayerNorm(kwb_sim::layerNormCall<T>(output, outputMean, outputVariance, inputX, gamma, beta,
                                                   nullptr, epsilon, tiling, isReuseSource),
                         loc_);
}

// The [A, R] form (rstd output, LayerNormPara, LayerNormSeparateTiling) is not emulated: its types exist
// so that kernels declaring them compile, and a call fails at compile time with unsupported-api.
struct LayerNormPara {
  uint32_t aLength = 0;
  uint32_t rLength = 0;
  uint32_t rLengthWithPadding = 0;
};
struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};
inline constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM,
          typename Tiling>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
               const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
               const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para, const Tiling& tiling) {
  static_assert(::kwb_sim::kAlwaysFalse<Tiling>,
                KWB_SIM_UNSUPPORTED_API_MSG("LayerNorm ([A, R] form with LayerNormPara and rstd output)"));
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM,
          typename Tiling>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
               const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
               const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
               const LayerNormPara& para, const Tiling& tiling) {
  static_assert(::kwb_sim::kAlwaysFalse<Tiling>,
                KWB_SIM_UNSUPPORTED_API_MSG("LayerNorm ([A, R] form with LayerNormPara and rstd output)"));
}

}  // namespace AscendC
