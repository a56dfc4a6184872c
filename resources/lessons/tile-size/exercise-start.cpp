// SPDX-License-Identifier: MIT
// Exercise for lesson tile-size: correct but slow. Make it faster than the target.
#include "kwb_tiling.h"

struct AddCustomTilingData {
  uint32_t totalLength;  // elements in every tensor
  uint32_t blockLength;  // elements per block (multiple of 128; the last block takes the remainder)
  uint32_t tileLength;   // elements per UB tile (multiple of 128)
};

#if KWB_COMPILE_KERNEL
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAddCustom {
 public:
  __aicore__ inline KernelAddCustom() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddCustomTilingData& t) {
    const uint32_t start = t.blockLength * static_cast<uint32_t>(GetBlockIdx());
    length_ = start >= t.totalLength
                  ? 0
                  : (t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength);
    tile_ = t.tileLength;
    xGm.SetGlobalBuffer((__gm__ half*)x + start, length_);
    yGm.SetGlobalBuffer((__gm__ half*)y + start, length_);
    zGm.SetGlobalBuffer((__gm__ half*)z + start, length_);
    pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(half));
    pipe.InitBuffer(yQueue, BUFFER_NUM, tile_ * sizeof(half));
    pipe.InitBuffer(zQueue, BUFFER_NUM, tile_ * sizeof(half));
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
      LocalTensor<half> l = xQueue.AllocTensor<half>();
      DataCopyPad(l, xGm[off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0},
                  DataCopyPadExtParams<half>{false, 0, 0, 0});
      xQueue.EnQue(l);
    }
    {
      LocalTensor<half> l = yQueue.AllocTensor<half>();
      DataCopyPad(l, yGm[off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0},
                  DataCopyPadExtParams<half>{false, 0, 0, 0});
      yQueue.EnQue(l);
    }
  }
  __aicore__ inline void Compute(uint32_t count) {
    const int32_t n = static_cast<int32_t>(count);
    LocalTensor<half> x = xQueue.DeQue<half>();
    LocalTensor<half> y = yQueue.DeQue<half>();
    LocalTensor<half> z = zQueue.AllocTensor<half>();
    Add(z, x, y, n);
    zQueue.EnQue<half>(z);
    xQueue.FreeTensor(x);
    yQueue.FreeTensor(y);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    LocalTensor<half> l = zQueue.DeQue<half>();
    DataCopyPad(zGm[off], l, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0});
    zQueue.FreeTensor(l);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
  TQue<QuePosition::VECIN, BUFFER_NUM> yQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> zQueue;
  GlobalTensor<half> xGm;
  GlobalTensor<half> yGm;
  GlobalTensor<half> zGm;
  uint32_t length_ = 0;
  uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling) {
  AddCustomTilingData t = *reinterpret_cast<__gm__ AddCustomTilingData*>(tiling);
  KernelAddCustom op;
  op.Init(x, y, z, t);
  op.Process();
}
#endif  // KWB_COMPILE_KERNEL

#if KWB_COMPILE_TILING
extern "C" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {
  AddCustomTilingData t{};
  const uint64_t total = static_cast<uint64_t>(in->outputs[0].elements);
  if (total == 0 || total > 0xffffffffull) return KWB_TILING_FAILED;
  // UB per element: double-buffered inputs and output, plus float scratch.
  const uint64_t bytesPerElem = 2 * (4 + 2) + 0 * 4;
  const uint64_t budget = in->ubSize > 16384 ? in->ubSize - 16384 : in->ubSize / 2;
  uint64_t tile = budget / bytesPerElem;
  if (tile > 128) tile = 128;
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
