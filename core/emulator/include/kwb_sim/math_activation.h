// SPDX-License-Identifier: MIT
#pragma once
// Activation functions of the math library: Sigmoid, Tanh, Silu, Gelu, FasterGelu (half/float), with the
// caller's temporary buffer (sharedTmpBuffer, at least the minimum that Get<Api>MaxMinTmpSize gives) or
// without it (the framework's reserved space), over calCount elements or the whole source tensor.
// Each call is traced as the vector instructions the library runs (docs/emulator.md, "Supported API").

#include <cstdint>

#include "kwb_sim/vec_ops.h"

namespace kwb_sim {

enum class MathOp : std::uint8_t { Sigmoid, Tanh, Silu, Gelu, FasterGelu };
// a.dst, a.src0, a.count; tmp: the caller's temporary buffer (nullptr: framework-reserved space).
void mathActivation(const VecArgs& a, MathOp op, const LocalDesc* tmp, std::uint64_t tmpBytes, SrcLoc loc);
// The smallest temporary buffer an activation needs, in bytes (0: none).
std::uint32_t mathMinTmpBytes(MathOp op, std::uint32_t typeSize);
std::uint32_t mathMaxTmpBytes(MathOp op, std::uint32_t typeSize, std::uint64_t elements);

template <typename T>
void mathCall(const char* api, MathOp op, const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<std::uint8_t>* tmp,
              std::uint32_t count, SrcLoc loc) {
  VecArgs a = vecArgs(api, VOp::Copy, dst);
  a.src0 = localDesc(src);
  a.nsrc = 1;
  a.count = count;
  if (tmp) {
    const LocalDesc t = localDesc(*tmp);
    mathActivation(a, op, &t, tmp->GetSize(), loc);
  } else {
    mathActivation(a, op, nullptr, 0, loc);
  }
}

}  // namespace kwb_sim

// The four forms each API has: (dst, src, tmp, count), (dst, src, tmp), (dst, src, count), (dst, src).
#define KWB_SIM_ACTIVATION(NAME, OP)                                                                      \
  KWB_SIM_ACTIVATION_HEAD void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                 \
                                    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, \
                                    KWB_SIM_LOC) {                                                        \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, half, float);                                                         \
    kwb_sim::mathCall(#NAME, kwb_sim::MathOp::OP, dst, src, &sharedTmpBuffer, calCount, loc_);            \
  }                                                                                                       \
  KWB_SIM_ACTIVATION_HEAD void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                 \
                                    const LocalTensor<uint8_t>& sharedTmpBuffer, KWB_SIM_LOC) {           \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, half, float);                                                         \
    kwb_sim::mathCall(#NAME, kwb_sim::MathOp::OP, dst, src, &sharedTmpBuffer, src.GetSize(), loc_);       \
  }                                                                                                       \
  KWB_SIM_ACTIVATION_HEAD void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                 \
                                    const uint32_t calCount, KWB_SIM_LOC) {                               \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, half, float);                                                         \
    kwb_sim::mathCall<T>(#NAME, kwb_sim::MathOp::OP, dst, src, nullptr, calCount, loc_);                  \
  }                                                                                                       \
  KWB_SIM_ACTIVATION_HEAD void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, KWB_SIM_LOC) {  \
    KWB_SIM_REQUIRE_DTYPE(#NAME, T, half, float);                                                         \
    kwb_sim::mathCall<T>(#NAME, kwb_sim::MathOp::OP, dst, src, nullptr, src.GetSize(), loc_);             \
  }

// One head for all: Sigmoid/Tanh/Silu take <T, isReuseSource>, Gelu/FasterGelu <T, highPrecision,
// highPerformance>; the flags select speed/accuracy trade-offs of the hardware code, not the result here.
#define KWB_SIM_ACTIVATION_HEAD template <typename T, bool kwbFlag1 = false, bool kwbFlag2 = false>

namespace AscendC {
KWB_SIM_ACTIVATION(Sigmoid, Sigmoid)
KWB_SIM_ACTIVATION(Tanh, Tanh)
KWB_SIM_ACTIVATION(Silu, Silu)
KWB_SIM_ACTIVATION(Gelu, Gelu)
KWB_SIM_ACTIVATION(FasterGelu, FasterGelu)
}  // namespace AscendC

#undef KWB_SIM_ACTIVATION
#undef KWB_SIM_ACTIVATION_HEAD
