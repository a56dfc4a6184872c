// SPDX-License-Identifier: MIT
// Calibration program: the devkit's GM->L1 copy experiments on the cube cores (calibration-data section 1,
// rows 27, 29 and 31): a [ROWS, COLS] half matrix split by rows over the 24 AIC blocks, each block moving
// its rows into L1 tile by tile with one DataCopy ND->NZ (Nd2NzParams: TILE_ROWS rows of TILE_COLS
// halves, GM row COLS, C0 stride TILE_ROWS rounded up to 16), nothing written back. Scenarios
// (-D CAL_SCENARIO=N, docs/calibration.md):
//   1: Tile[64,64] (128 B rows)   2: Tile[64,256] (512 B rows)   3: Tile[64,256] over COLS = 12287
//   4: L2 reuse, Tile[64,1024], the whole matrix read 4 times
//   5: L2 reuse, Tile[64,1024], each quarter of the columns read 4 times in turn
//   6: same-address conflict: a [6144,512] matrix read whole by every block, Tile[256,64], all blocks in
//      the same order of 256-row slices   7: the same with block b starting at slice b (staggered)
// -D CAL_ROWS=R runs fewer rows (same per-block pattern) for a quick check.
// One source for the emulator and the device (docs/calibration.md, "kwb calibrate"): CAL_HOST_SHAPES keeps
// only the launch constants, CAL_KERNEL_ONLY drops the CPU-mode main.
#ifdef CAL_HOST_SHAPES
#include <cstdint>
#else
#include "kernel_operator.h"
#endif

#ifndef CAL_SCENARIO
#define CAL_SCENARIO 2
#endif
#ifndef CAL_ROWS
#define CAL_ROWS 12288
#endif
constexpr uint32_t kBlocks = 24;
constexpr bool kWholeMatrixPerBlock = CAL_SCENARIO >= 6;
constexpr uint32_t kRows = kWholeMatrixPerBlock && CAL_ROWS == 12288 ? 6144 : CAL_ROWS;
constexpr uint32_t kCols = CAL_SCENARIO == 3 ? 12287 : kWholeMatrixPerBlock ? 512 : 12288;
constexpr uint32_t kTileRows = kWholeMatrixPerBlock ? 256 : 64;
constexpr uint32_t kTileCols = CAL_SCENARIO == 1 || kWholeMatrixPerBlock ? 64
                               : CAL_SCENARIO == 2 || CAL_SCENARIO == 3  ? 256
                                                                         : 1024;
constexpr uint32_t kPasses = CAL_SCENARIO == 4 || CAL_SCENARIO == 5 ? 4 : 1;  // reads of each part
constexpr uint32_t kParts = CAL_SCENARIO == 5 ? 4 : 1;                        // column quarters read in turn
constexpr uint32_t kTileBytes = kTileRows * kTileCols * 2;
constexpr uint32_t kBuffers = 2;  // 2 x 128 KB at most: well inside the 512 KB L1
constexpr uint32_t kBlockRows = kRows / kBlocks;

constexpr uint32_t kCalLaunchBlocks = kBlocks;
constexpr int kCalLaunchBuffers = 1;
constexpr uint64_t kCalBufferBytes = uint64_t{kRows} * kCols * 2;

#ifndef CAL_HOST_SHAPES
class DataCopyL1Kernel {
 public:
  __aicore__ inline void Init(GM_ADDR src) {
    firstRow_ = kWholeMatrixPerBlock ? 0 : AscendC::GetBlockIdx() * kBlockRows;
    src_ = (__gm__ half*)src;
    pipe_.InitBuffer(queue_, kBuffers, kTileBytes);
  }

  __aicore__ inline void Process() {
    if constexpr (kWholeMatrixPerBlock) {
      const uint32_t slices = kRows / kBlockRows;
      const uint32_t block = AscendC::GetBlockIdx();
      for (uint32_t i = 0; i < slices; ++i) {
        const uint32_t group = i / kBlocks * kBlocks;
        const uint32_t slice = CAL_SCENARIO == 7 ? group + (i + block) % kBlocks : i;
        for (uint32_t r = 0; r < kBlockRows; r += kTileRows)
          for (uint32_t c = 0; c < kCols; c += kTileCols) CopyTile(slice * kBlockRows + r, c);
      }
      return;
    }
    constexpr uint32_t partCols = kCols / kParts;
    for (uint32_t part = 0; part < kParts; ++part)
      for (uint32_t pass = 0; pass < kPasses; ++pass)
        for (uint32_t r = 0; r < kBlockRows; r += kTileRows)
          for (uint32_t c = 0; c < partCols; c += kTileCols) CopyTile(firstRow_ + r, part * partCols + c);
  }

 private:
  __aicore__ inline void CopyTile(uint32_t row, uint32_t col) {
    const uint32_t cols = col + kTileCols <= kCols ? kTileCols : kCols - col;
    AscendC::LocalTensor<half> tile = queue_.AllocTensor<half>();
    gm_.SetGlobalBuffer(src_ + uint64_t{row} * kCols + col, uint64_t{kTileRows} * kCols);
    // One ND matrix of kTileRows x cols out of rows of kCols halves, into NZ fractals of 16 rows.
    const uint16_t c0Stride = static_cast<uint16_t>((kTileRows + 15) / 16 * 16);
    AscendC::DataCopy(tile, gm_,
                      AscendC::Nd2NzParams(1, static_cast<uint16_t>(kTileRows), static_cast<uint16_t>(cols),
                                           0, static_cast<uint16_t>(kCols), c0Stride, 1, 0));
    queue_.EnQue(tile);
    tile = queue_.DeQue<half>();
    queue_.FreeTensor(tile);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::A1, kBuffers> queue_;
  AscendC::GlobalTensor<half> gm_;
  __gm__ half* src_ = nullptr;
  uint32_t firstRow_ = 0;
};

extern "C" __global__ __cube__ void calibration_data_copy_l1(GM_ADDR src) {
  DataCopyL1Kernel op;
  op.Init(src);
  op.Process();
}

#endif  // CAL_HOST_SHAPES

#if !defined(CAL_HOST_SHAPES) && !defined(CAL_KERNEL_ONLY)
#include <cstdio>
#include "tikicpulib.h"
int main() {
  uint8_t* src = static_cast<uint8_t*>(AscendC::GmAlloc(kCalBufferBytes));
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(calibration_data_copy_l1, kCalLaunchBlocks, src);
  AscendC::GmFree(src);
  std::printf("calibration_data_copy_l1 scenario=%d rows=%u cols=%u\n", CAL_SCENARIO, kRows, kCols);
  return 0;
}
#endif
