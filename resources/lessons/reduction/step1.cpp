// SPDX-License-Identifier: MIT
// Lesson reduction, step 1: ReduceSum's work tensor holds one 32-byte block (8 floats).
#include "kwb_tiling.h"

struct ReduceSumRowsTilingData {
  uint32_t rows;          // product of all dims but the last
  uint32_t cols;          // last dim
  uint32_t colsAligned;   // cols rounded up to 64 floats: ReduceSum/ReduceMax read whole 256-byte repeats
  uint32_t rowsPerBlock;  // rows per block; the last block takes the remainder
};

#if KWB_COMPILE_KERNEL
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelReduceSumRows {
 public:
  __aicore__ inline KernelReduceSumRows() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceSumRowsTilingData& t) {
    cols_ = t.cols;
    colsAligned_ = t.colsAligned;
    rowStart_ = t.rowsPerBlock * static_cast<uint32_t>(GetBlockIdx());
    rowCount_ =
        rowStart_ >= t.rows ? 0 : (t.rows - rowStart_ < t.rowsPerBlock ? t.rows - rowStart_ : t.rowsPerBlock);
    xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(rowStart_) * cols_,
                        static_cast<uint64_t>(rowCount_) * cols_);
    yGm.SetGlobalBuffer((__gm__ float*)y + rowStart_, rowCount_);
    pipe.InitBuffer(inQueue, BUFFER_NUM, colsAligned_ * sizeof(float));
    pipe.InitBuffer(outQueue, 1, (rowCount_ + 7) / 8 * 8 * sizeof(float));
    pipe.InitBuffer(tmpBuf, colsAligned_ * sizeof(float));
    pipe.InitBuffer(workBuf, 8 * sizeof(float));
    pipe.InitBuffer(redBuf, 64 * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> y = outQueue.AllocTensor<float>();
    LocalTensor<float> t0 = tmpBuf.Get<float>();
    LocalTensor<float> w = workBuf.Get<float>();
    LocalTensor<float> r = redBuf.Get<float>();
    const int32_t n = static_cast<int32_t>(cols_);
    for (uint32_t row = 0; row < rowCount_; ++row) {
      CopyIn(row);
      LocalTensor<float> x = inQueue.DeQue<float>();
      ReduceSum(r, x, w, n);
      y.SetValue(row, r.GetValue(0));
      inQueue.FreeTensor(x);
    }
    outQueue.EnQue<float>(y);
    LocalTensor<float> l = outQueue.DeQue<float>();
    DataCopyPad(yGm, l, DataCopyExtParams{1, rowCount_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
    outQueue.FreeTensor(l);
  }

 private:
  __aicore__ inline void CopyIn(uint32_t row) {
    LocalTensor<float> l = inQueue.AllocTensor<float>();
    DataCopyPad(l, xGm[static_cast<uint64_t>(row) * cols_],
                DataCopyExtParams{1, cols_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    inQueue.EnQue(l);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECOUT, 1> outQueue;
  TBuf<TPosition::VECCALC> tmpBuf, workBuf, redBuf;
  GlobalTensor<float> xGm;
  GlobalTensor<float> yGm;
  uint32_t cols_ = 0, colsAligned_ = 0, rowStart_ = 0, rowCount_ = 0;
};

extern "C" __global__ __aicore__ void reduce_sum_rows(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling) {
  ReduceSumRowsTilingData t = *reinterpret_cast<__gm__ ReduceSumRowsTilingData*>(tiling);
  KernelReduceSumRows op;
  op.Init(x, y, t);
  op.Process();
}
#endif  // KWB_COMPILE_KERNEL

#if KWB_COMPILE_TILING
extern "C" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {
  ReduceSumRowsTilingData t{};
  const KwbTensorDesc& x = in->inputs[0];
  if (x.dimNum < 1) return KWB_TILING_FAILED;
  const uint64_t cols = static_cast<uint64_t>(x.dims[x.dimNum - 1]);
  const uint64_t rows = static_cast<uint64_t>(x.elements) / cols;
  const uint64_t colsAligned = (cols + 63) / 64 * 64;  // whole 256-byte repeats for the reductions
  // UB: 2 input rows + 1 result vector + scratch + work + 0 parameter vectors.
  const uint64_t need = colsAligned * 4 * (4 + 0) + 256 + rows * 4;
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
