// SPDX-License-Identifier: MIT
#pragma once
// Type utilities of the kernel API that the devkit's cube samples use in `if constexpr` branches:
// AscendC::IsSameType (the devkit's Fixpipe/DataCopy pages write `AscendC::IsSameType<T, int8_t>::value`)
// and the int4b_t type name they compare against.

#include <cstdint>

namespace AscendC {

template <typename T, typename U>
struct IsSameType {
  static constexpr bool value = false;
};
template <typename T>
struct IsSameType<T, T> {
  static constexpr bool value = true;
};

// The 4-bit integer (two elements per byte; sizeof is 1, as the samples' comments note). Declared so that
// code comparing a type against it compiles; the kwb emulator has no int4 data path, so a tensor or an
// Mmad of int4b_t is refused as unsupported-dtype where the element type is checked.
struct int4b_t {
  uint8_t packed = 0;
};

}  // namespace AscendC
