// SPDX-License-Identifier: MIT
#pragma once
// Host side of CANN's CPU debug mode: GmAlloc/GmFree (shared GM with guard pages), SetKernelMode,
// ICPU_RUN_KF (one forked process per block) and ICPU_SET_TILING_KEY.

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "kwb_sim/runtime.h"

// Lets host code tell the emulator's CPU mode from CANN's.
#define KWB_SIM_HOST 1

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1, MIX_AIC_1_2 };

namespace kwb_sim {

void setKernelMode(int mode);
// The generated evaluation harness names the GM buffers it allocated for the task's tensors, so that
// the workbench can account every changed output byte to a recorded write (docs/sandbox.md).
void recordHarnessTensor(const char* name, const void* p, std::uint64_t bytes);
// Reports a kernel pointer argument that is not inside a GmAlloc block (blocks run in forked processes:
// writes through such a pointer never reach the host).
void checkKernelPointerArg(const char* kernel, int index, const void* p, SrcLoc loc);

template <typename P, typename A>
P argCast(A&& a) {
  using D = std::decay_t<A>;
  if constexpr (std::is_pointer_v<P> && (std::is_pointer_v<D> || std::is_null_pointer_v<D>)) {
    return reinterpret_cast<P>(const_cast<void*>(static_cast<const void*>(a)));
  } else if constexpr (std::is_pointer_v<P> && std::is_integral_v<D>) {
    return reinterpret_cast<P>(static_cast<std::uintptr_t>(a));
  } else {
    return static_cast<P>(std::forward<A>(a));
  }
}

template <typename T>
const void* asPtr(const T& v) {
  if constexpr (std::is_pointer_v<T>)
    return reinterpret_cast<const void*>(v);
  else
    return nullptr;
}

template <typename... P>
struct KernelCall {
  void (*fn)(P...);
  std::tuple<P...>* args;
  static void run(void* c) {
    auto* self = static_cast<KernelCall*>(c);
    std::apply(self->fn, *self->args);
  }
};

template <typename... P, typename... A>
void runKernel(const char* name, void (*fn)(P...), std::uint32_t blockDim, SrcLoc loc, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "kwb-sim: ICPU_RUN_KF: the number of arguments does not match the kernel's parameter count");
  std::tuple<P...> converted{argCast<P>(std::forward<A>(args))...};
  int index = 0;
  std::apply(
      [&](auto&... p) {
        ((std::is_pointer_v<std::decay_t<decltype(p)>> ? checkKernelPointerArg(name, index, asPtr(p), loc)
                                                       : void(),
          ++index),
         ...);
      },
      converted);
  KernelCall<P...> call{fn, &converted};
  launch(name, blockDim, &KernelCall<P...>::run, &call, loc, KWB_SIM_SOC_NAME, KWB_SIM_AUTO_SYNC != 0);
}

}  // namespace kwb_sim

namespace AscendC {
inline void* GmAlloc(std::size_t size) {
  return kwb_sim::gmAlloc(size);
}
inline void GmFree(void* ptr) {
  kwb_sim::gmFree(ptr);
}
inline void SetKernelMode(KernelMode mode) {
  kwb_sim::setKernelMode(static_cast<int>(mode));
}
}  // namespace AscendC

#define ICPU_RUN_KF(func, blkdim, ...)                                                                \
  ::kwb_sim::runKernel(#func, func, static_cast<std::uint32_t>(blkdim), ::kwb_sim::SrcLoc::current(), \
                       ##__VA_ARGS__)
// ICPU_RUN_KF of an entry compiled under another symbol (an operator project's, renamed so that it cannot
// clash with a C library function: docs/emulator.md), launched under its own name.
#define KWB_SIM_RUN_KF_AS(name, func, blkdim, ...)                                                   \
  ::kwb_sim::runKernel(name, func, static_cast<std::uint32_t>(blkdim), ::kwb_sim::SrcLoc::current(), \
                       ##__VA_ARGS__)
#define ICPU_SET_TILING_KEY(key) ::kwb_sim::setTilingKey(static_cast<std::uint64_t>(key))
