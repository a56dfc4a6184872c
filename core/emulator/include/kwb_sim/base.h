// SPDX-License-Identifier: MIT
#pragma once
// kwb_sim base: qualifiers, the SoC selected at build time, source locations of user calls, dtype
// traits and the compile-time unsupported-api / unsupported-dtype machinery. C++17 and C++20.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kwb_sim/fp16.h"
#include "kwb_sim/trace.h"

// ---- qualifiers (no meaning on the CPU) -------------------------------------------------------------
// The names below are Ascend C's own keywords and toolchain macros, reserved spellings by design.
// NOLINTBEGIN(bugprone-reserved-identifier)
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __inline__
#define __inline__ inline
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
// Marks the kernel parameter that carries the Matmul API's system workspace (the KFC client/server
// messages on a device); on the emulator the workspace is ordinary GM, so the marker has no effect.
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif
// __mix__(cubeCores, vectorCores): a kernel run by both core types. The function is placed in a section
// named after the ratio, which the launch looks its address up in (runtime/KernelType.cpp): (1, 1) and
// (1, 2) run each block as 1 AIC + 1 or 2 AIV processes (docs/emulator.md, "Mixed AIC/AIV kernels").
#ifndef __mix__
#define __mix__(cubeCores, vectorCores) __attribute__((section("kwb_mix_" #cubeCores "_" #vectorCores)))
#endif

#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif
#ifndef __CCE_KT_TEST__
#define __CCE_KT_TEST__ 1
#endif

// ---- SoC chosen by `kwb sim build --soc` (defaults: Ascend910B1) -------------------------------------
#ifndef KWB_SIM_SOC_NAME
#define KWB_SIM_SOC_NAME "Ascend910B1"
#endif
#ifndef KWB_SIM_ARCH
#define KWB_SIM_ARCH 2201
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ KWB_SIM_ARCH
#endif
// NOLINTEND(bugprone-reserved-identifier)
#ifndef KWB_SIM_AUTO_SYNC
#define KWB_SIM_AUTO_SYNC 1
#endif
// Which sub-core runs: a mix kernel's AIC process sees ASCEND_IS_AIC, its AIV processes ASCEND_IS_AIV;
// a vector kernel's blocks are AIV, a declared cube-only kernel's are AIC (kwb_sim/kernel_type.h).
// (The functions are AscendC's, kwb_sim/kernel_misc.h, so that the expansion passes the candidate policy.)
#ifndef ASCEND_IS_AIV
#define ASCEND_IS_AIV (::AscendC::KwbCoreIsAiv())
#endif
#ifndef ASCEND_IS_AIC
#define ASCEND_IS_AIC (::AscendC::KwbCoreIsAic())
#endif

using half = kwb_sim::half;
using bfloat16_t = kwb_sim::bfloat16;
// The device compiler's names for the same types, which public kernels use as often as half/float.
using float16_t = kwb_sim::half;
using float32_t = float;

namespace kwb_sim {

// Where the user called an API. Filled at the call site through defaulted trailing parameters
// (g++ evaluates __builtin_FILE/__builtin_LINE of a default argument at the outermost call).
struct SrcLoc {
  const char* file;
  std::uint32_t line;
  static SrcLoc current(const char* f = __builtin_FILE(), std::uint32_t l = __builtin_LINE()) {
    return SrcLoc{f, l};
  }
};
#define KWB_SIM_LOC ::kwb_sim::SrcLoc loc_ = ::kwb_sim::SrcLoc::current()

template <typename T>
inline constexpr bool kAlwaysFalse = false;

template <typename T, typename... A>
inline constexpr bool kIsOneOf = (std::is_same_v<T, A> || ...);

template <typename T>
constexpr DType dtypeOf() {
  if constexpr (std::is_same_v<T, half>)
    return DType::F16;
  else if constexpr (std::is_same_v<T, bfloat16>)
    return DType::BF16;
  else if constexpr (std::is_same_v<T, float>)
    return DType::F32;
  else if constexpr (std::is_same_v<T, double>)
    return DType::F64;
  else if constexpr (std::is_same_v<T, std::int8_t>)
    return DType::I8;
  else if constexpr (std::is_same_v<T, std::uint8_t>)
    return DType::U8;
  else if constexpr (std::is_same_v<T, std::int16_t>)
    return DType::I16;
  else if constexpr (std::is_same_v<T, std::uint16_t>)
    return DType::U16;
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return DType::I32;
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    return DType::U32;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return DType::I64;
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return DType::U64;
  else
    return DType::None;
}

}  // namespace kwb_sim

// Compile-time rejection of dtypes an API does not take on the selected SoC, worded like the real
// compiler's refusal: "kwb-sim: unsupported-dtype: <API> does not support <dtype> on <soc>".
#define KWB_SIM_DT1_(API, T, OK, X)            \
  static_assert(!std::is_same_v<T, X> || (OK), \
                "kwb-sim: unsupported-dtype: " API " does not support " #X " on " KWB_SIM_SOC_NAME);
#define KWB_SIM_REQUIRE_DTYPE(API, T, ...)                                     \
  do {                                                                         \
    constexpr bool kwbOk_ = ::kwb_sim::kIsOneOf<T, __VA_ARGS__>;               \
    KWB_SIM_DT1_(API, T, kwbOk_, half)                                         \
    KWB_SIM_DT1_(API, T, kwbOk_, bfloat16_t)                                   \
    KWB_SIM_DT1_(API, T, kwbOk_, float)                                        \
    KWB_SIM_DT1_(API, T, kwbOk_, double)                                       \
    KWB_SIM_DT1_(API, T, kwbOk_, int8_t)                                       \
    KWB_SIM_DT1_(API, T, kwbOk_, uint8_t)                                      \
    KWB_SIM_DT1_(API, T, kwbOk_, int16_t)                                      \
    KWB_SIM_DT1_(API, T, kwbOk_, uint16_t)                                     \
    KWB_SIM_DT1_(API, T, kwbOk_, int32_t)                                      \
    KWB_SIM_DT1_(API, T, kwbOk_, uint32_t)                                     \
    KWB_SIM_DT1_(API, T, kwbOk_, int64_t)                                      \
    KWB_SIM_DT1_(API, T, kwbOk_, uint64_t)                                     \
    static_assert(kwbOk_ || ::kwb_sim::dtypeOf<T>() != ::kwb_sim::DType::None, \
                  "kwb-sim: unsupported-dtype: " API                           \
                  " does not support this element type on " KWB_SIM_SOC_NAME); \
  } while (0)

// bfloat16 arithmetic exists on 2201 (910B) only for some APIs; 310P (2002) has none.
#if KWB_SIM_ARCH == 2002
#define KWB_SIM_BF16_IF_2201
#else
#define KWB_SIM_BF16_IF_2201 , bfloat16_t
#endif

// An API known to Ascend C but not emulated: referencing it fails at compile time with a message
// naming it. `Name` must be a template so that the assertion fires only where it is used.
#define KWB_SIM_UNSUPPORTED_API_MSG(NAME) \
  "kwb-sim: unsupported-api: " NAME       \
  " is not emulated yet (docs/emulator.md, \"Supported API\", lists what the kwb emulator provides)"
