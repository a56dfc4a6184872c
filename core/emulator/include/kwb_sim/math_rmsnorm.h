// SPDX-License-Identifier: MIT
#pragma once
// RmsNorm of the math library over a [B, S, H] source: dst = src * gamma / sqrt(mean(src^2) + epsilon)
// along H, the mean taken as the tiling's reciprocalOfHLength (1 / the original H) times the sum of
// squares. The caller's sharedTmpBuffer (or the framework's reserved space) must hold at least
// GetRmsNormMaxMinTmpSize's minimum; the RmsNormTiling comes from GetRmsNormTilingInfo
// (math_rmsnorm_tiling.h). docs/emulator.md, "RmsNorm".

#include <cstdint>

#include "kwb_sim/vec_ops.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(float, reciprocalOfHLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBshLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLengthAlign);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, tailBshLength);
TILING_DATA_FIELD_DEF(uint32_t, tailBsLength);
END_TILING_DATA_DEF
}  // namespace optiling

using RmsNormTiling = optiling::RmsNormTiling;
namespace AscendC::tiling {
using RmsNormTiling = optiling::RmsNormTiling;
}  // namespace AscendC::tiling

namespace kwb_sim {

struct RmsNormCall {
  DType dt = DType::None;
  std::uint32_t esize = 0;
  LocalDesc dst{nullptr, {}}, src{nullptr, {}}, gamma{nullptr, {}};
  bool hasTmp = false;
  LocalDesc tmp{nullptr, {}};
  std::uint64_t tmpBytes = 0;
  std::uint64_t gammaElems = 0;
  double epsilon = 0;
  std::uint32_t b = 0, s = 0, h = 0;
  float reciprocalOfH = 0;
};
void mathRmsNorm(const RmsNormCall& c, SrcLoc loc);
// GetRmsNormMaxMinTmpSize on these parts (bytes): min (H * (half ? 2 : 1) + 8) floats, max
// (B*S*H * (half ? 2 : 1) + B*S rounded up to a block) floats.
std::uint32_t rmsNormMinTmpBytes(std::uint32_t h, std::uint32_t typeSize);
std::uint32_t rmsNormMaxTmpBytes(std::uint32_t b, std::uint32_t s, std::uint32_t h, std::uint32_t typeSize);

template <typename T>
RmsNormCall rmsNormCall(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<std::uint8_t>* tmp,
                        T epsilon, const optiling::RmsNormTiling& tiling) {
  RmsNormCall c;
  c.dt = dtypeOf<T>();
  c.esize = sizeof(T);
  c.dst = localDesc(dst);
  c.src = localDesc(src);
  c.gamma = localDesc(gamma);
  c.gammaElems = gamma.GetSize();
  if (tmp) {
    c.hasTmp = true;
    c.tmp = localDesc(*tmp);
    c.tmpBytes = tmp->GetSize();
  }
  c.epsilon = static_cast<double>(static_cast<float>(epsilon));
  c.b = tiling.bLength;
  c.s = tiling.sLength;
  c.h = tiling.hLength;
  c.reciprocalOfH = tiling.reciprocalOfHLength;
  return c;
}

}  // namespace kwb_sim

namespace AscendC {

template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling,
             KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("RmsNorm", T, half, float);
  kwb_sim::mathRmsNorm(
      kwb_sim::rmsNormCall(dstLocal, srcLocal, gammaLocal, &sharedTmpBuffer, epsilon, tiling), loc_);
}
template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
             const T epsilon, const RmsNormTiling& tiling, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("RmsNorm", T, half, float);
  kwb_sim::mathRmsNorm(kwb_sim::rmsNormCall<T>(dstLocal, srcLocal, gammaLocal, nullptr, epsilon, tiling),
                       loc_);
}

}  // namespace AscendC
