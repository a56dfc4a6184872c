// SPDX-License-Identifier: MIT
#pragma once
// Host side of CANN's CPU debug mode: GmAlloc/GmFree (shared GM with guard pages), SetKernelMode,
// ICPU_RUN_KF (blocks in forked worker processes, runtime/BlockPool.h) and ICPU_SET_TILING_KEY; and the
// device-style launches (docs/emulator.md, "Launch forms"): `kernel<<<blockDim, l2ctrl, stream>>>(args)`
// (rewritten by kwb into chevronLaunch, core/emulator/ChevronRewrite.h) and
// ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args). Those two have device memory semantics: the kernel may
// only reach aclrtMalloc memory.

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
// `form` names the launch form in the message ("ICPU_RUN_KF", "<<<>>>", "ACLRT_LAUNCH_KERNEL"); a
// device-style launch (deviceMemory) words it for device memory.
void checkKernelPointerArg(const char* kernel, const char* form, int index, const void* p, SrcLoc loc,
                           bool deviceMemory);
// Where device memory is (ACL's host-side checks, acl/acl.h): whether `p` lies inside a GmAlloc /
// aclrtMalloc block, and the bytes from `p` to the end of its block (0 when it is not inside one).
bool gmKnown(const void* p);
std::uint64_t gmBytesFrom(const void* p);
// While set, a kernel's GM access outside every GmAlloc/aclrtMalloc block is an error (host memory is
// out of a device's reach) instead of an unchecked host pointer.
void setDeviceMemoryOnly(bool on);
// aclrtMallocHost / aclrtFreeHost: host buffers a kernel of a device-style launch cannot reach, raw pointer
// accesses included (runtime/HostBuffers.cpp).
void registerHostBuffer(void* p, std::size_t size);
void unregisterHostBuffer(void* p);

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

// `mix` is the kernel's `__mix__(cube, vector)` ratio when the launch rewrite read it from the source
// (a template kernel's instances ignore the section attribute __mix__ expands to), {-1, -1} otherwise.
struct MixDecl {
  int cube = -1;
  int vector = -1;
};

template <typename... P, typename... A>
void runKernelAs(const char* form, bool deviceMemory, const char* name, void (*fn)(P...),
                 std::uint32_t blockDim, SrcLoc loc, MixDecl mix, A&&... args) {
  static_assert(
      sizeof...(P) == sizeof...(A),
      "kwb-sim: the number of arguments of this kernel launch does not match the kernel's parameter "
      "count");
  std::tuple<P...> converted{argCast<P>(std::forward<A>(args))...};
  int index = 0;
  std::apply(
      [&](auto&... p) {
        ((std::is_pointer_v<std::decay_t<decltype(p)>>
              ? checkKernelPointerArg(name, form, index, asPtr(p), loc, deviceMemory)
              : void(),
          ++index),
         ...);
      },
      converted);
  KernelCall<P...> call{fn, &converted};
  setDeviceMemoryOnly(deviceMemory);
  launch(name, blockDim, &KernelCall<P...>::run, &call, loc, KWB_SIM_SOC_NAME, KWB_SIM_AUTO_SYNC != 0, form,
         reinterpret_cast<const void*>(fn), mix.cube, mix.vector);
  setDeviceMemoryOnly(false);
}

template <typename... P, typename... A>
void runKernel(const char* name, void (*fn)(P...), std::uint32_t blockDim, SrcLoc loc, A&&... args) {
  runKernelAs("ICPU_RUN_KF", false, name, fn, blockDim, loc, MixDecl{}, std::forward<A>(args)...);
}

// kernel<<<blockDim, l2ctrl, stream>>>(args...): the launch runs to completion before the call returns
// (streams are in order, so aclrtSynchronizeStream afterwards has nothing left to wait for).
template <typename... P>
struct ChevronLaunch {
  const char* name;
  void (*fn)(P...);
  std::uint32_t blockDim;
  SrcLoc loc;
  MixDecl mix;
  template <typename... A>
  void operator()(A&&... args) const {
    runKernelAs("<<<>>>", true, name, fn, blockDim, loc, mix, std::forward<A>(args)...);
  }
};
template <typename... P, typename B, typename L2, typename S>
ChevronLaunch<P...> chevronLaunch(const char* name, void (*fn)(P...), SrcLoc loc, B blockDim, L2&& /*l2ctrl*/,
                                  S&& /*stream*/) {
  return ChevronLaunch<P...>{name, fn, static_cast<std::uint32_t>(blockDim), loc, MixDecl{}};
}
// The launch of a kernel the source declares `__mix__(cube, vector)` (core/emulator/ChevronRewrite.h).
template <typename... P, typename B, typename L2, typename S>
ChevronLaunch<P...> chevronLaunch(const char* name, void (*fn)(P...), SrcLoc loc, MixDecl mix, B blockDim,
                                  L2&& /*l2ctrl*/, S&& /*stream*/) {
  return ChevronLaunch<P...>{name, fn, static_cast<std::uint32_t>(blockDim), loc, mix};
}

// ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...), the kernel-launch samples' NPU form.
template <typename... P>
struct AclrtLaunch {
  const char* name;
  void (*fn)(P...);
  SrcLoc loc;
  template <typename B, typename S, typename... A>
  int operator()(B blockDim, S&& /*stream*/, A&&... args) const {
    runKernelAs("ACLRT_LAUNCH_KERNEL", true, name, fn, static_cast<std::uint32_t>(blockDim), loc, MixDecl{},
                std::forward<A>(args)...);
    return 0;
  }
};
template <typename... P>
AclrtLaunch<P...> aclrtLaunch(const char* name, void (*fn)(P...), SrcLoc loc) {
  return AclrtLaunch<P...>{name, fn, loc};
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
#define ACLRT_LAUNCH_KERNEL(kernel) ::kwb_sim::aclrtLaunch(#kernel, kernel, ::kwb_sim::SrcLoc::current())
