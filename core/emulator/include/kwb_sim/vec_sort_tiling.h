// SPDX-License-Identifier: MIT
#pragma once
// Host-side helpers of the library's sort (kwb_sim/vec_sort.h) for the pair layout of the A2/A3 parts:
// GetSortTmpSize is the bytes of the sorted pairs (8 per element, the full sort's merge buffer) and
// GetConcatTmpSize is 0 (Concat moves nothing there). The 310P parts sort region proposals, which the
// emulator does not model; the kernel side refuses them (docs/emulator.md, "Supported API", the Sort32 /
// MrgSort rows).

#include <cstdint>

// The platform is not consulted (these are the A2/A3 values), so a declaration suffices and this header
// does not pull in the operator-project tiling context.
namespace platform_ascendc {
class PlatformAscendC;
}  // namespace platform_ascendc

namespace AscendC {

inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                               const uint32_t elemCount, const uint32_t dataTypeSize) {
  (void)ascendcPlatform;
  return dataTypeSize == 2 || dataTypeSize == 4 ? elemCount * 8 : 0;
}

inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                 const uint32_t elemCount, const uint32_t dataTypeSize) {
  (void)ascendcPlatform;
  (void)elemCount;
  (void)dataTypeSize;
  return 0;
}

}  // namespace AscendC
