// SPDX-License-Identifier: MIT
// Calibration program: the tiled fp16 element-wise kernels of calibration-data section 2 (add of four
// inputs, mul, relu, div by a per-row scalar), in the launch form the published ones use: blockDim =
// min(20, tiles), TILE_LENGTH 8192 halves, double buffering, DataCopyPad in and out, one contiguous
// range of whole tiles per block and the remainder on the last block (docs/calibration.md).
//   -D CAL_OP=1 add4 ((x1+x2)+x3)+x4, [B,256,384]
//   -D CAL_OP=2 mul x1*x2, [B,12,256,32]
//   -D CAL_OP=3 relu, [B,12,256,32]
//   -D CAL_OP=4 div x1 [B,12,256,256] / x2 [B,12,256,1] broadcast per row (per-row Duplicate + Div)
//   -D CAL_BATCH=B, -D CAL_BLOCK_DIM=20, -D CAL_TILE=8192
// One source for the emulator and the device (docs/calibration.md, "kwb calibrate"): CAL_HOST_SHAPES keeps
// only the launch constants (the emitted host main.cpp includes this file for them), CAL_KERNEL_ONLY drops
// the CPU-mode main (the emitted project's kernel library).
#ifdef CAL_HOST_SHAPES
#include <cstdint>
#else
#include "kernel_operator.h"
#endif

#ifndef CAL_OP
#define CAL_OP 1
#endif
#ifndef CAL_BATCH
#define CAL_BATCH 1
#endif
#ifndef CAL_BLOCK_DIM
#define CAL_BLOCK_DIM 20
#endif
#ifndef CAL_TILE
#define CAL_TILE 8192
#endif

constexpr uint32_t kTile = CAL_TILE;
constexpr uint32_t kBuffers = 2;
constexpr uint32_t kRow = 256;  // div: elements sharing one divisor
#if CAL_OP == 1
constexpr uint64_t kElements = uint64_t{CAL_BATCH} * 256 * 384;
constexpr int kInputs = 4;
#elif CAL_OP == 2
constexpr uint64_t kElements = uint64_t{CAL_BATCH} * 12 * 256 * 32;
constexpr int kInputs = 2;
#elif CAL_OP == 3
constexpr uint64_t kElements = uint64_t{CAL_BATCH} * 12 * 256 * 32;
constexpr int kInputs = 1;
#else
constexpr uint64_t kElements = uint64_t{CAL_BATCH} * 12 * 256 * 256;
constexpr int kInputs = 2;
#endif

struct Split {
  uint32_t blocks = 1;
  uint64_t perBlock = 0;  // elements of every block but the last
  uint64_t last = 0;      // elements of the last block
};

// Whole tiles per block, the remainder on the last one; fewer blocks when there are fewer tiles.
constexpr Split splitWork() {
  const uint64_t tiles = (kElements + kTile - 1) / kTile;
  Split s;
  s.blocks = static_cast<uint32_t>(tiles < CAL_BLOCK_DIM ? tiles : CAL_BLOCK_DIM);
  uint64_t perBlockTiles = (tiles + s.blocks - 1) / s.blocks;
  while (s.blocks > 1 && perBlockTiles * kTile * (s.blocks - 1) >= kElements) {
    --s.blocks;
    perBlockTiles = (tiles + s.blocks - 1) / s.blocks;
  }
  s.perBlock = perBlockTiles * kTile;
  s.last = kElements - s.perBlock * (s.blocks - 1);
  return s;
}
constexpr Split kSplit = splitWork();

// What a host needs to launch the kernel: blocks, and the five GM buffers (x1..x4, y) of this many bytes.
constexpr uint32_t kCalLaunchBlocks = kSplit.blocks;
constexpr int kCalLaunchBuffers = 5;
constexpr uint64_t kCalBufferBytes = kElements * 2;

#ifndef CAL_HOST_SHAPES
class ElementwiseKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR x3, GM_ADDR x4, GM_ADDR y) {
    const uint32_t block = AscendC::GetBlockIdx();
    offset_ = block * kSplit.perBlock;
    elements_ = block + 1 < kSplit.blocks ? kSplit.perBlock : kSplit.last;
    in_[0] = (__gm__ half*)x1;
    in_[1] = (__gm__ half*)x2;
    in_[2] = (__gm__ half*)x3;
    in_[3] = (__gm__ half*)x4;
    out_ = (__gm__ half*)y;
    for (int i = 0; i < kInputs; ++i)
      pipe_.InitBuffer(inQueue_[i], kBuffers, (CAL_OP == 4 && i == 1 ? kTile / kRow : kTile) * sizeof(half));
    pipe_.InitBuffer(outQueue_, kBuffers, kTile * sizeof(half));
    if (CAL_OP == 1) pipe_.InitBuffer(sum_, kTile * sizeof(half));
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (elements_ + kTile - 1) / kTile;
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint32_t count = static_cast<uint32_t>(t + 1 < tiles ? kTile : elements_ - t * kTile);
      const uint64_t at = offset_ + t * kTile;
      CopyIn(at, count);
      Compute(count);
      CopyOut(at, count);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t at, uint32_t count) {
    for (int i = 0; i < kInputs; ++i) {
      const bool divisor = CAL_OP == 4 && i == 1;
      const uint64_t from = divisor ? at / kRow : at;
      const uint32_t n = divisor ? (count + kRow - 1) / kRow : count;
      AscendC::LocalTensor<half> local = inQueue_[i].AllocTensor<half>();
      gm_.SetGlobalBuffer(in_[i] + from, n);
      AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
      AscendC::DataCopyPadExtParams<half> pad{false, 0, 0, half(0)};
      AscendC::DataCopyPad(local, gm_, params, pad);
      inQueue_[i].EnQue(local);
    }
  }

  __aicore__ inline void Compute(uint32_t count) {
    AscendC::LocalTensor<half> x[kInputs];
    for (int i = 0; i < kInputs; ++i) x[i] = inQueue_[i].DeQue<half>();
    AscendC::LocalTensor<half> y = outQueue_.AllocTensor<half>();
#if CAL_OP == 1
    AscendC::LocalTensor<half> sum = sum_.Get<half>();
    AscendC::Add(sum, x[0], x[1], count);
    AscendC::Add(sum, sum, x[2], count);
    AscendC::Add(y, sum, x[3], count);
#elif CAL_OP == 2
    AscendC::Mul(y, x[0], x[1], count);
#elif CAL_OP == 3
    AscendC::Relu(y, x[0], count);
#else
    const uint32_t rows = (count + kRow - 1) / kRow;
    for (uint32_t r = 0; r < rows; ++r) {
      const half divisor = x[1].GetValue(r);
      const uint32_t first = r * kRow;
      const uint32_t n = first + kRow <= count ? kRow : count - first;
      AscendC::Duplicate(y[first], divisor, n);
      AscendC::Div(y[first], x[0][first], y[first], n);
    }
#endif
    outQueue_.EnQue(y);
    for (int i = 0; i < kInputs; ++i) inQueue_[i].FreeTensor(x[i]);
  }

  __aicore__ inline void CopyOut(uint64_t at, uint32_t count) {
    AscendC::LocalTensor<half> y = outQueue_.DeQue<half>();
    gm_.SetGlobalBuffer(out_ + at, count);
    AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(half)), 0, 0, 0};
    AscendC::DataCopyPad(gm_, y, params);
    outQueue_.FreeTensor(y);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBuffers> inQueue_[kInputs];
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBuffers> outQueue_;
  AscendC::TBuf<AscendC::QuePosition::VECCALC> sum_;
  AscendC::GlobalTensor<half> gm_;
  __gm__ half* in_[4] = {};
  __gm__ half* out_ = nullptr;
  uint64_t offset_ = 0, elements_ = 0;
};

extern "C" __global__ __aicore__ void calibration_elementwise(GM_ADDR x1, GM_ADDR x2, GM_ADDR x3, GM_ADDR x4,
                                                              GM_ADDR y) {
  ElementwiseKernel op;
  op.Init(x1, x2, x3, x4, y);
  op.Process();
}

#endif  // CAL_HOST_SHAPES

#if !defined(CAL_HOST_SHAPES) && !defined(CAL_KERNEL_ONLY)
#include <cstdio>
#include "tikicpulib.h"
int main() {
  const size_t bytes = kCalBufferBytes;
  uint8_t* gm[kCalLaunchBuffers];
  for (auto& g : gm) {
    g = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
    for (size_t i = 0; i < kElements; ++i) reinterpret_cast<uint16_t*>(g)[i] = 0x3c00;  // 1.0
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(calibration_elementwise, kCalLaunchBlocks, gm[0], gm[1], gm[2], gm[3], gm[4]);
  for (auto* g : gm) AscendC::GmFree(g);
  std::printf("calibration_elementwise op=%d batch=%d blocks=%u\n", CAL_OP, CAL_BATCH, kSplit.blocks);
  return 0;
}
#endif
