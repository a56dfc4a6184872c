// SPDX-License-Identifier: MIT
#pragma once
// Scatter (inside UB): dst at byte offset dstBaseAddr + dstOffset[i] = src[i], in count form and in both
// mask/repeat forms. The API reference lists it for the inference parts (310P: uint16_t, half, uint32_t,
// float) and NOT for the 910B (A2/A3) parts, where using it is refused at compile time with a pointer to
// the reference's compatibility sample (docs/emulator.md, "Scatter").

#include <cstdint>

#include "kwb_sim/unsupported.h"
#include "kwb_sim/vec_ops.h"

namespace kwb_sim {

// a.dst, a.src0 (source), offsets: uint32 byte offsets from dst's start plus dstBaseAddr. Count form:
// a.count; repeat form: mask, repeat and a.src0Rep (32-byte blocks).
void vecScatter(const VecArgs& a, const LocalDesc& offsets, std::uint32_t dstBaseAddr, SrcLoc loc);

template <typename T>
VecArgs scatterArgs(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src) {
  VecArgs a = vecArgs("Scatter", VOp::Copy, dst);
  a.src0 = localDesc(src);
  a.nsrc = 1;
  return a;
}

}  // namespace kwb_sim

namespace AscendC {

#if KWB_SIM_ARCH == 2002
template <typename T>
void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
             const uint32_t dstBaseAddr, const uint32_t count, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Scatter", T, uint16_t, half, uint32_t, float);
  kwb_sim::VecArgs a = kwb_sim::scatterArgs(dst, src);
  a.count = count;
  kwb_sim::vecScatter(a, kwb_sim::localDesc(dstOffset), dstBaseAddr, loc_);
}
template <typename T>
void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
             const uint32_t dstBaseAddr, const uint64_t mask, const uint8_t repeatTime,
             const uint8_t srcRepStride, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Scatter", T, uint16_t, half, uint32_t, float);
  kwb_sim::VecArgs a = kwb_sim::scatterArgs(dst, src);
  kwb_sim::setMaskArg(a, true, mask, repeatTime);
  a.src0Rep = srcRepStride;
  kwb_sim::vecScatter(a, kwb_sim::localDesc(dstOffset), dstBaseAddr, loc_);
}
template <typename T>
void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
             const uint32_t dstBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
             const uint8_t srcRepStride, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Scatter", T, uint16_t, half, uint32_t, float);
  kwb_sim::VecArgs a = kwb_sim::scatterArgs(dst, src);
  kwb_sim::setMaskArg(a, true, mask, repeatTime);
  a.src0Rep = srcRepStride;
  kwb_sim::vecScatter(a, kwb_sim::localDesc(dstOffset), dstBaseAddr, loc_);
}
#else
template <typename... KwbT, typename... KwbA>
void Scatter(KwbA&&...) {
  static_assert(::kwb_sim::kAlwaysFalsePack<KwbT..., KwbA...>,
                "kwb-sim: unsupported-api: Scatter is not available on " KWB_SIM_SOC_NAME
                " (the API reference lists it for the inference parts only; on A2/A3 scatter with a loop of "
                "SetValue or follow the reference's Scatter compatibility sample)");
}
#endif

}  // namespace AscendC
