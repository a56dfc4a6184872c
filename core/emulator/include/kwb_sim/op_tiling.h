// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the kernel side of an operator project's tiling (docs/emulator.md, "Operator
// projects"). GET_TILING_DATA copies the tiling bytes the host TilingFunc saved from the `tiling` GM
// argument into a local of the project's registered TilingData class; the build names that class in
// KWB_OP_TILING_DATA (core/toolchain/OpProjectForm.h). TILING_KEY_IS compares with the key the
// TilingFunc set (context->SetTilingKey), which the harness gives the launch (ICPU_SET_TILING_KEY).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include "kwb_sim/base.h"
#include "kwb_sim/kernel_type.h"
#include "kwb_sim/runtime.h"

namespace AscendC {

template <typename T>
inline void KwbCopyTilingData(T* dst, const __gm__ uint8_t* tiling) {
  // The harness's tiling buffer holds KWB_TILING_CAPACITY (4096) bytes, zero past what was saved.
  static_assert(sizeof(T) <= 4096, "kwb-sim: the tiling struct is larger than the 4096-byte tiling buffer");
  std::memcpy(static_cast<void*>(dst), tiling, sizeof(T));
}

inline uint64_t KwbTilingKey() {
  return ::kwb_sim::tilingKey();
}

// ASSERT(expr) in a kernel, as msopgen's samples check their block dim with it: a failed one ends the
// block with an invalid-param diagnostic at the kernel's line naming the expression, as a device stops
// the kernel and prints it (docs/emulator.md, "Operator projects").
inline void KwbAssert(bool ok, const char* expression, ::kwb_sim::SrcLoc loc = ::kwb_sim::SrcLoc::current()) {
  if (!ok)
    ::kwb_sim::fatal(::kwb_sim::Cat::InvalidParam, "ASSERT", loc, ::kwb_sim::Pipe::S, ::kwb_sim::kOperandNone,
                     std::string("ASSERT(") + expression + ") failed");
}

// ascendc_assert(expr, fmt, args...): the devkit's kernel assertion with a printf-style message. A failed
// one ends the block like ASSERT, with the formatted message in the diagnostic.
template <typename... A>
inline void KwbAssertFormat(bool ok, const char* expression, ::kwb_sim::SrcLoc loc,
                            const char* format = nullptr, A... args) {
  if (ok) return;
  std::string message = std::string("ascendc_assert(") + expression + ") failed";
  if (format) {
    char text[512];
    if constexpr (sizeof...(A) == 0) {
      std::snprintf(text, sizeof(text), "%s", format);
    } else {
      std::snprintf(text, sizeof(text), format, args...);
    }
    std::string shown(text);
    while (!shown.empty() && shown.back() == '\n') shown.pop_back();
    message += ": " + shown;
  }
  ::kwb_sim::fatal(::kwb_sim::Cat::InvalidParam, "ascendc_assert", loc, ::kwb_sim::Pipe::S,
                   ::kwb_sim::kOperandNone, message);
}

// The user's part of the kernel's workspace. The emulator's library needs no system workspace
// (PlatformAscendC::GetLibApiWorkSpaceSize() is 0), so it starts at the argument itself.
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  return workspace;
}

}  // namespace AscendC

// The standard C++ tiling form (a plain struct in op_kernel/, context->GetTilingData<T>() on the
// host): REGISTER_TILING_DEFAULT(T) in the kernel names the struct GET_TILING_DATA reads, as a local
// alias; a project with a registered TilingData class (KWB_OP_TILING_DATA) reads that one.
// REGISTER_TILING_FOR_TILINGKEY("condition", T) names a key's own struct, which the kernel reads with
// GET_TILING_DATA_WITH_STRUCT; here it only checks that T is a tiling struct.
#define REGISTER_TILING_DEFAULT(tiling_struct)                     \
  static_assert(::std::is_trivially_copyable_v<tiling_struct>,     \
                "kwb-sim: REGISTER_TILING_DEFAULT(" #tiling_struct \
                "): a tiling struct is trivially copyable");       \
  using KwbTilingDefault = tiling_struct
#define REGISTER_TILING_FOR_TILINGKEY(condition, tiling_struct)                          \
  static_assert(::std::is_trivially_copyable_v<tiling_struct>,                           \
                "kwb-sim: REGISTER_TILING_FOR_TILINGKEY(" #condition ", " #tiling_struct \
                "): a tiling struct is trivially copyable")
#ifdef KWB_OP_TILING_DATA
#define GET_TILING_DATA(tiling_var, tiling_arg) \
  KWB_OP_TILING_DATA tiling_var;                \
  ::AscendC::KwbCopyTilingData(&tiling_var, tiling_arg)
#else
#define GET_TILING_DATA(tiling_var, tiling_arg) \
  KwbTilingDefault tiling_var;                  \
  ::AscendC::KwbCopyTilingData(&tiling_var, tiling_arg)
#endif
#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_var, tiling_arg) \
  tiling_struct tiling_var;                                                \
  ::AscendC::KwbCopyTilingData(&tiling_var, tiling_arg)
#ifndef ASSERT
#define ASSERT(expr) ::AscendC::KwbAssert(static_cast<bool>(expr), #expr)
#endif
#ifndef ascendc_assert
#define ascendc_assert(expr, ...) \
  ::AscendC::KwbAssertFormat(static_cast<bool>(expr), #expr, ::kwb_sim::SrcLoc::current(), ##__VA_ARGS__)
#endif
#define TILING_KEY_IS(key) (::AscendC::KwbTilingKey() == static_cast<uint64_t>(key))
