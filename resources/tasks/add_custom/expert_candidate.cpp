// Expert candidate for add_custom: z = x + y over float16, double buffered, one contiguous slice per
// block, unaligned tail handled with DataCopyPad.
#include "kernel_operator.h"
using namespace AscendC;

struct AddCustomTilingData {
  uint32_t totalLength;  // elements in x, y and z
  uint32_t blockLength;  // elements per block (the last block takes the remainder)
  uint32_t tileLength;   // elements per tile, a multiple of 16 (32 bytes of half)
};

constexpr int32_t BUFFER_NUM = 2;

class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddCustomTilingData& t) {
    const uint32_t start = t.blockLength * GetBlockIdx();
    length_ = (start >= t.totalLength) ? 0 : (t.totalLength - start < t.blockLength ? t.totalLength - start
                                                                                     : t.blockLength);
    tile_ = t.tileLength;
    xGm.SetGlobalBuffer((__gm__ half*)x + start, length_);
    yGm.SetGlobalBuffer((__gm__ half*)y + start, length_);
    zGm.SetGlobalBuffer((__gm__ half*)z + start, length_);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tile_ * sizeof(half));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tile_ * sizeof(half));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tile_ * sizeof(half));
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
    LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
    LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
    DataCopyExtParams copy{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
    DataCopyPadExtParams<half> pad{false, 0, 0, 0};
    DataCopyPad(xLocal, xGm[off], copy, pad);
    DataCopyPad(yLocal, yGm[off], copy, pad);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<half> xLocal = inQueueX.DeQue<half>();
    LocalTensor<half> yLocal = inQueueY.DeQue<half>();
    LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
    Add(zLocal, xLocal, yLocal, n);
    outQueueZ.EnQue<half>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
    DataCopyExtParams copy{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
    DataCopyPad(zGm[off], zLocal, copy);
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  GlobalTensor<half> xGm, yGm, zGm;
  uint32_t length_ = 0;
  uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling) {
  AddCustomTilingData t = *reinterpret_cast<__gm__ AddCustomTilingData*>(tiling);
  KernelAdd op;
  op.Init(x, y, z, t);
  op.Process();
}
