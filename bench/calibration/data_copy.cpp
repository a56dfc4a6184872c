// SPDX-License-Identifier: MIT
// Calibration program: the devkit's GM->UB copy-bandwidth experiments (calibration-data section 1):
// a [ROWS, COLS] half matrix split by rows over 48 blocks, each block copying its rows into UB tile by
// tile ([TILE_ROWS, TILE_COLS]: one DataCopyPad of TILE_ROWS bursts of TILE_COLS halves, GM stride one
// matrix row), with nothing written back. Scenarios (-D CAL_SCENARIO=N, docs/calibration.md):
//   1: Tile[1,64] (128 B bursts)   2: Tile[64,64]   3: Tile[64,1024] (2 KB bursts)
//   4: Tile[64,1024] over COLS = 12287 (rows not 32 B aligned)
//   5: L2 reuse, whole matrix read 4 times   6: L2 reuse, each quarter of the rows read 4 times in turn
//   7: same-address conflict: a [6144,512] matrix read whole by every block, Tile[128,64], all blocks in
//      the same order of 128-row slices   8: the same with block b starting at slice b (staggered)
// -D CAL_ROWS=R runs fewer rows (same per-block pattern) for a quick check.
// One source for the emulator and the device (docs/calibration.md, "kwb calibrate"): CAL_HOST_SHAPES keeps
// only the launch constants (the emitted host main.cpp includes this file for them), CAL_KERNEL_ONLY drops
// the CPU-mode main (the emitted project's kernel library).
#ifdef CAL_HOST_SHAPES
#include <cstdint>
#else
#include "kernel_operator.h"
#endif

#ifndef CAL_SCENARIO
#define CAL_SCENARIO 3
#endif
#ifndef CAL_ROWS
#define CAL_ROWS 12288
#endif
constexpr uint32_t kBlocks = 48;
constexpr bool kWholeMatrixPerBlock = CAL_SCENARIO >= 7;  // scenarios 7 and 8: every block reads it all
constexpr uint32_t kRows = kWholeMatrixPerBlock && CAL_ROWS == 12288 ? 6144 : CAL_ROWS;
constexpr uint32_t kCols = CAL_SCENARIO == 4 ? 12287 : kWholeMatrixPerBlock ? 512 : 12288;
constexpr uint32_t kTileRows = CAL_SCENARIO == 1 ? 1 : kWholeMatrixPerBlock ? 128 : 64;
constexpr uint32_t kTileCols = CAL_SCENARIO == 1 || CAL_SCENARIO == 2 || kWholeMatrixPerBlock ? 64 : 1024;
constexpr uint32_t kPasses = CAL_SCENARIO >= 5 ? 4 : 1;  // reads of each part
constexpr uint32_t kParts = CAL_SCENARIO == 6 ? 4 : 1;   // parts of a block's rows read in turn
constexpr uint32_t kTileBytes = kTileRows * kTileCols * 2;
constexpr uint32_t kBuffers = 2 * kTileBytes <= 192 * 1024 ? 2 : 1;
constexpr uint32_t kBlockRows = kRows / kBlocks;

// What a host needs to launch the kernel: blocks, and the one GM buffer (src) of this many bytes.
constexpr uint32_t kCalLaunchBlocks = kBlocks;
constexpr int kCalLaunchBuffers = 1;
constexpr uint64_t kCalBufferBytes = uint64_t{kRows} * kCols * 2;

#ifndef CAL_HOST_SHAPES
class DataCopyKernel {
 public:
  __aicore__ inline void Init(GM_ADDR src) {
    firstRow_ = kWholeMatrixPerBlock ? 0 : AscendC::GetBlockIdx() * kBlockRows;
    src_ = (__gm__ half*)src;
    pipe_.InitBuffer(queue_, kBuffers, kTileBytes);
  }

  __aicore__ inline void Process() {
    if constexpr (kWholeMatrixPerBlock) {
      // Slices of kBlockRows rows, taken in the same order by every block (7) or rotated by the block
      // index within each group of kBlocks slices (8), so that the blocks read different lines at a time.
      const uint32_t slices = kRows / kBlockRows;
      const uint32_t block = AscendC::GetBlockIdx();
      for (uint32_t i = 0; i < slices; ++i) {
        const uint32_t group = i / kBlocks * kBlocks;
        const uint32_t slice = CAL_SCENARIO == 8 ? group + (i + block) % kBlocks : i;
        for (uint32_t r = 0; r < kBlockRows; r += kTileRows)
          for (uint32_t c = 0; c < kCols; c += kTileCols) CopyTile(slice * kBlockRows + r, c);
      }
      return;
    }
    constexpr uint32_t partRows = kBlockRows / kParts;
    for (uint32_t part = 0; part < kParts; ++part)
      for (uint32_t pass = 0; pass < kPasses; ++pass)
        for (uint32_t r = 0; r < partRows; r += kTileRows)
          for (uint32_t c = 0; c < kCols; c += kTileCols) CopyTile(firstRow_ + part * partRows + r, c);
  }

 private:
  __aicore__ inline void CopyTile(uint32_t row, uint32_t col) {
    const uint32_t cols = col + kTileCols <= kCols ? kTileCols : kCols - col;
    AscendC::LocalTensor<half> tile = queue_.AllocTensor<half>();
    gm_.SetGlobalBuffer(src_ + uint64_t{row} * kCols + col, uint64_t{kTileRows} * kCols);
    // Bursts of `cols` halves, GM gap to the next row's tile, packed into UB rows of 32 B multiples.
    AscendC::DataCopyExtParams params{static_cast<uint16_t>(kTileRows), cols * 2u, (kCols - cols) * 2u, 0, 0};
    AscendC::DataCopyPadExtParams<half> pad{false, 0, 0, half(0)};
    AscendC::DataCopyPad(tile, gm_, params, pad);
    queue_.EnQue(tile);
    tile = queue_.DeQue<half>();
    queue_.FreeTensor(tile);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBuffers> queue_;
  AscendC::GlobalTensor<half> gm_;
  __gm__ half* src_ = nullptr;
  uint32_t firstRow_ = 0;
};

extern "C" __global__ __aicore__ void calibration_data_copy(GM_ADDR src) {
  DataCopyKernel op;
  op.Init(src);
  op.Process();
}

#endif  // CAL_HOST_SHAPES

#if !defined(CAL_HOST_SHAPES) && !defined(CAL_KERNEL_ONLY)
#include <cstdio>
#include "tikicpulib.h"
int main() {
  uint8_t* src = static_cast<uint8_t*>(AscendC::GmAlloc(kCalBufferBytes));
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(calibration_data_copy, kCalLaunchBlocks, src);
  AscendC::GmFree(src);
  std::printf("calibration_data_copy scenario=%d rows=%u cols=%u\n", CAL_SCENARIO, kRows, kCols);
  return 0;
}
#endif
