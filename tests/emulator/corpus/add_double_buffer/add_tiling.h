#ifndef ADD_TILING_H
#define ADD_TILING_H
#include <cstdint>

// Passed to the kernel by value, as the kernel-launch samples do.
struct AddTilingData {
    uint32_t totalLength;  // elements over all blocks
    uint32_t tileNum;      // tiles per block (each split in BUFFER_NUM halves)
};

#endif  // ADD_TILING_H
