// SPDX-License-Identifier: MIT
// Lesson multicore-overlap, step 1: each block gets total/cores elements (not a multiple of 8 floats)
// and writes its result with DataCopy rounded up to whole 32-byte blocks, so the last block of every
// slice also lands on the first elements of the next block's slice.
#include "kwb_tiling.h"

struct SubCustomTilingData {
  uint32_t totalLength;  // elements in every tensor
  uint32_t blockLength;  // elements per block (multiple of 128; the last block takes the remainder)
  uint32_t tileLength;   // elements per UB tile (multiple of 128)
};

#if KWB_COMPILE_KERNEL
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelSubCustom {
 public:
  __aicore__ inline KernelSubCustom() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const SubCustomTilingData& t) {
    const uint32_t start = t.blockLength * static_cast<uint32_t>(GetBlockIdx());
    length_ = start >= t.totalLength
                  ? 0
                  : (t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength);
    tile_ = t.tileLength;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, length_);
    yGm.SetGlobalBuffer((__gm__ float*)y + start, length_);
    zGm.SetGlobalBuffer((__gm__ float*)z + start, (length_ + 7) / 8 * 8);
    pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
    pipe.InitBuffer(yQueue, BUFFER_NUM, tile_ * sizeof(float));
    pipe.InitBuffer(zQueue, BUFFER_NUM, tile_ * sizeof(float));
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
    {
      LocalTensor<float> l = yQueue.AllocTensor<float>();
      DataCopyPad(l, yGm[off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0},
                  DataCopyPadExtParams<float>{false, 0, 0, 0});
      yQueue.EnQue(l);
    }
  }
  __aicore__ inline void Compute(uint32_t count) {
    const int32_t n = static_cast<int32_t>(count);
    LocalTensor<float> x = xQueue.DeQue<float>();
    LocalTensor<float> y = yQueue.DeQue<float>();
    LocalTensor<float> z = zQueue.AllocTensor<float>();
    Sub(z, x, y, n);
    zQueue.EnQue<float>(z);
    xQueue.FreeTensor(x);
    yQueue.FreeTensor(y);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    LocalTensor<float> l = zQueue.DeQue<float>();
    DataCopy(zGm[off], l, (n + 7) / 8 * 8);  // whole 32-byte blocks: "DataCopy needs them"
    zQueue.FreeTensor(l);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
  TQue<QuePosition::VECIN, BUFFER_NUM> yQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> zQueue;
  GlobalTensor<float> xGm;
  GlobalTensor<float> yGm;
  GlobalTensor<float> zGm;
  uint32_t length_ = 0;
  uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void sub_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling) {
  SubCustomTilingData t = *reinterpret_cast<__gm__ SubCustomTilingData*>(tiling);
  KernelSubCustom op;
  op.Init(x, y, z, t);
  op.Process();
}
#endif  // KWB_COMPILE_KERNEL

#if KWB_COMPILE_TILING
extern "C" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {
  SubCustomTilingData t{};
  const uint64_t total = static_cast<uint64_t>(in->outputs[0].elements);
  if (total == 0 || total > 0xffffffffull) return KWB_TILING_FAILED;
  // UB per element: double-buffered inputs and output, plus float scratch.
  const uint64_t bytesPerElem = 2 * (8 + 4) + 0 * 4;
  const uint64_t budget = in->ubSize > 16384 ? in->ubSize - 16384 : in->ubSize / 2;
  uint64_t tile = budget / bytesPerElem;
  if (tile > 8192) tile = 8192;
  tile -= tile % 128;
  if (tile == 0) return KWB_TILING_FAILED;
  const uint64_t cores = in->coreNumAiv ? in->coreNumAiv : 1;
  uint64_t perBlock = (total + cores - 1) / cores;
  // every core gets exactly its share
  t.totalLength = static_cast<uint32_t>(total);
  t.blockLength = static_cast<uint32_t>(perBlock);
  t.tileLength = static_cast<uint32_t>(tile < perBlock ? tile : perBlock);
  kwb_set_block_dim(out, static_cast<uint32_t>((total + perBlock - 1) / perBlock));
  kwb_set_workspace(out, 0);
  return kwb_set_tiling(out, &t, sizeof t);
}
#endif  // KWB_COMPILE_TILING
