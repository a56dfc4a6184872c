// SPDX-License-Identifier: MIT
// Lesson broadcast, step 2: b is one row shared by all rows: loaded once per block from its start.
#include "kwb_tiling.h"

struct BroadcastAddRowTilingData {
  uint32_t rows;          // product of all dims but the last
  uint32_t cols;          // last dim
  uint32_t colsAligned;   // cols rounded up to 64 floats: ReduceSum/ReduceMax read whole 256-byte repeats
  uint32_t rowsPerBlock;  // rows per block; the last block takes the remainder
};

#if KWB_COMPILE_KERNEL
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelBroadcastAddRow {
 public:
  __aicore__ inline KernelBroadcastAddRow() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR b, GM_ADDR z, const BroadcastAddRowTilingData& t) {
    cols_ = t.cols;
    colsAligned_ = t.colsAligned;
    rowStart_ = t.rowsPerBlock * static_cast<uint32_t>(GetBlockIdx());
    rowCount_ =
        rowStart_ >= t.rows ? 0 : (t.rows - rowStart_ < t.rowsPerBlock ? t.rows - rowStart_ : t.rowsPerBlock);
    xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(rowStart_) * cols_,
                        static_cast<uint64_t>(rowCount_) * cols_);
    zGm.SetGlobalBuffer((__gm__ float*)z + static_cast<uint64_t>(rowStart_) * cols_,
                        static_cast<uint64_t>(rowCount_) * cols_);
    bGm.SetGlobalBuffer((__gm__ float*)b, cols_);
    pipe.InitBuffer(inQueue, BUFFER_NUM, colsAligned_ * sizeof(float));
    pipe.InitBuffer(outQueue, BUFFER_NUM, colsAligned_ * sizeof(float));
    pipe.InitBuffer(tmpBuf, colsAligned_ * sizeof(float));
    pipe.InitBuffer(workBuf, colsAligned_ * sizeof(float));
    pipe.InitBuffer(redBuf, 64 * sizeof(float));
    pipe.InitBuffer(bBuf, colsAligned_ * sizeof(float));
  }
  __aicore__ inline void Process() {
    // Row-invariant parameters: loaded once per block.
    {
      LocalTensor<float> l = bBuf.Get<float>();
      DataCopyPad(l, bGm, DataCopyExtParams{1, cols_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                  DataCopyPadExtParams<float>{false, 0, 0, 0});
    }
    // MTE2 -> V: the parameter copies must land before the first vector op reads them.
    event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(ev);
    WaitFlag<HardEvent::MTE2_V>(ev);
    LocalTensor<float> b = bBuf.Get<float>();
    LocalTensor<float> t0 = tmpBuf.Get<float>();
    LocalTensor<float> w = workBuf.Get<float>();
    LocalTensor<float> r = redBuf.Get<float>();
    const int32_t n = static_cast<int32_t>(cols_);
    for (uint32_t row = 0; row < rowCount_; ++row) {
      CopyIn(row);
      LocalTensor<float> x = inQueue.DeQue<float>();
      LocalTensor<float> z = outQueue.AllocTensor<float>();
      Add(z, x, b, n);
      outQueue.EnQue<float>(z);
      inQueue.FreeTensor(x);
      CopyOut(row);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t row) {
    LocalTensor<float> l = inQueue.AllocTensor<float>();
    DataCopyPad(l, xGm[static_cast<uint64_t>(row) * cols_],
                DataCopyExtParams{1, cols_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    inQueue.EnQue(l);
  }
  __aicore__ inline void CopyOut(uint32_t row) {
    LocalTensor<float> l = outQueue.DeQue<float>();
    DataCopyPad(zGm[static_cast<uint64_t>(row) * cols_], l,
                DataCopyExtParams{1, cols_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
    outQueue.FreeTensor(l);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  TBuf<TPosition::VECCALC> tmpBuf, workBuf, redBuf;
  TBuf<TPosition::VECCALC> bBuf;
  GlobalTensor<float> xGm;
  GlobalTensor<float> zGm;
  GlobalTensor<float> bGm;
  uint32_t cols_ = 0, colsAligned_ = 0, rowStart_ = 0, rowCount_ = 0;
};

extern "C" __global__ __aicore__ void broadcast_add_row(GM_ADDR x, GM_ADDR b, GM_ADDR z, GM_ADDR workspace,
                                                        GM_ADDR tiling) {
  BroadcastAddRowTilingData t = *reinterpret_cast<__gm__ BroadcastAddRowTilingData*>(tiling);
  KernelBroadcastAddRow op;
  op.Init(x, b, z, t);
  op.Process();
}
#endif  // KWB_COMPILE_KERNEL

#if KWB_COMPILE_TILING
extern "C" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {
  BroadcastAddRowTilingData t{};
  const KwbTensorDesc& x = in->inputs[0];
  if (x.dimNum < 1) return KWB_TILING_FAILED;
  const uint64_t cols = static_cast<uint64_t>(x.dims[x.dimNum - 1]);
  const uint64_t rows = static_cast<uint64_t>(x.elements) / cols;
  const uint64_t colsAligned = (cols + 63) / 64 * 64;  // whole 256-byte repeats for the reductions
  // UB: 2 input rows + 2 output rows + scratch + work + 1 parameter vectors.
  const uint64_t need = colsAligned * 4 * (6 + 1) + 256;
  if (need + 16384 > in->ubSize) return KWB_TILING_FAILED;  // rows this long need a column split
  const uint64_t cores = in->coreNumAiv ? in->coreNumAiv : 1;
  uint64_t rowsPerBlock = (rows + cores - 1) / cores;
  if (rowsPerBlock < 4) rowsPerBlock = 4;
  t.rows = static_cast<uint32_t>(rows);
  t.cols = static_cast<uint32_t>(cols);
  t.colsAligned = static_cast<uint32_t>(colsAligned);
  t.rowsPerBlock = static_cast<uint32_t>(rowsPerBlock);
  kwb_set_block_dim(out, static_cast<uint32_t>((rows + rowsPerBlock - 1) / rowsPerBlock));
  kwb_set_workspace(out, 0);
  return kwb_set_tiling(out, &t, sizeof t);
}
#endif  // KWB_COMPILE_TILING
