// SPDX-License-Identifier: MIT
// Lesson queue-misuse, step 2: every DeQue'd buffer is freed once its consumer is done.
#include "kwb_tiling.h"

struct SqrtCustomTilingData {
  uint32_t totalLength;  // elements in every tensor
  uint32_t blockLength;  // elements per block (multiple of 128; the last block takes the remainder)
  uint32_t tileLength;   // elements per UB tile (multiple of 128)
};

#if KWB_COMPILE_KERNEL
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelSqrtCustom {
 public:
  __aicore__ inline KernelSqrtCustom() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SqrtCustomTilingData& t) {
    const uint32_t start = t.blockLength * static_cast<uint32_t>(GetBlockIdx());
    length_ = start >= t.totalLength
                  ? 0
                  : (t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength);
    tile_ = t.tileLength;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, length_);
    yGm.SetGlobalBuffer((__gm__ float*)y + start, length_);
    pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
    pipe.InitBuffer(yQueue, BUFFER_NUM, tile_ * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < length_; off += tile_) {
      const uint32_t n = (length_ - off < tile_) ? length_ - off : tile_;
      CopyIn(off, n);
      Compute(n);
      CopyOut(off, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {
    {
      LocalTensor<float> l = xQueue.AllocTensor<float>();
      DataCopyPad(l, xGm[off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0},
                  DataCopyPadExtParams<float>{false, 0, 0, 0});
      xQueue.EnQue(l);
    }
  }
  __aicore__ inline void Compute(uint32_t count) {
    const int32_t n = static_cast<int32_t>(count);
    LocalTensor<float> x = xQueue.DeQue<float>();
    LocalTensor<float> y = yQueue.AllocTensor<float>();
    Sqrt(y, x, n);
    yQueue.EnQue<float>(y);
    xQueue.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    LocalTensor<float> l = yQueue.DeQue<float>();
    DataCopyPad(yGm[off], l, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
    yQueue.FreeTensor(l);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> yQueue;
  GlobalTensor<float> xGm;
  GlobalTensor<float> yGm;
  uint32_t length_ = 0;
  uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void sqrt_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  SqrtCustomTilingData t = *reinterpret_cast<__gm__ SqrtCustomTilingData*>(tiling);
  KernelSqrtCustom op;
  op.Init(x, y, t);
  op.Process();
}
#endif  // KWB_COMPILE_KERNEL

#if KWB_COMPILE_TILING
extern "C" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {
  SqrtCustomTilingData t{};
  const uint64_t total = static_cast<uint64_t>(in->outputs[0].elements);
  if (total == 0 || total > 0xffffffffull) return KWB_TILING_FAILED;
  // UB per element: double-buffered inputs and output, plus float scratch.
  const uint64_t bytesPerElem = 2 * (4 + 4) + 0 * 4;
  const uint64_t budget = in->ubSize > 16384 ? in->ubSize - 16384 : in->ubSize / 2;
  uint64_t tile = budget / bytesPerElem;
  if (tile > 512) tile = 512;  // several tiles per block even on small inputs
  tile -= tile % 128;
  if (tile == 0) return KWB_TILING_FAILED;
  const uint64_t cores = in->coreNumAiv ? in->coreNumAiv : 1;
  uint64_t perBlock = (total + cores - 1) / cores;
  if (perBlock < 2048) perBlock = 2048;  // small inputs: fewer, fuller blocks
  perBlock = (perBlock + 127) / 128 * 128;
  t.totalLength = static_cast<uint32_t>(total);
  t.blockLength = static_cast<uint32_t>(perBlock);
  t.tileLength = static_cast<uint32_t>(tile < perBlock ? tile : perBlock);
  kwb_set_block_dim(out, static_cast<uint32_t>((total + perBlock - 1) / perBlock));
  kwb_set_workspace(out, 0);
  return kwb_set_tiling(out, &t, sizeof t);
}
#endif  // KWB_COMPILE_TILING
