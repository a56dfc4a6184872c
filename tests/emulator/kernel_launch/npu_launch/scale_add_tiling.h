// SPDX-License-Identifier: MIT
// Tiling of scale_add, passed to the kernel by value (the launch function takes a pointer to it).
#pragma once
#include <cstdint>
struct ScaleAddTiling {
  uint32_t totalLength;  // elements over all blocks
  uint32_t tileLength;   // elements per tile
  float scale;
};
