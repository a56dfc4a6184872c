// z[r, :] = x[r, :] + y[0, :] on float: y (one row) is loaded once per block and reused for every row.
#include "kernel_operator.h"

struct BroadcastAddTiling {
    uint32_t rows;  // total rows over all blocks
    uint32_t cols;  // elements per row, a multiple of 8 (32 bytes)
};

constexpr int32_t BUFFER_NUM = 2;

class KernelBroadcastAdd {
public:
    __aicore__ inline KernelBroadcastAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const BroadcastAddTiling &tiling)
    {
        cols = tiling.cols;
        rowsPerBlock = tiling.rows / AscendC::GetBlockNum();
        uint32_t offset = rowsPerBlock * cols * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, rowsPerBlock * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y, cols);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, rowsPerBlock * cols);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, cols * sizeof(float));
        pipe.InitBuffer(inQueueY, 1, cols * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, cols * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> yIn = inQueueY.AllocTensor<float>();
        AscendC::DataCopy(yIn, yGm, cols);
        inQueueY.EnQue(yIn);
        AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        for (uint32_t row = 0; row < rowsPerBlock; row++) {
            CopyIn(row);
            Compute(yLocal);
            CopyOut(row);
        }
        inQueueY.FreeTensor(yLocal);
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm[row * cols], cols);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(const AscendC::LocalTensor<float> &yLocal)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        AscendC::Add(zLocal, xLocal, yLocal, cols);
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t row)
    {
        AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        AscendC::DataCopy(zGm[row * cols], zLocal, cols);
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    uint32_t cols;
    uint32_t rowsPerBlock;
};

extern "C" __global__ __aicore__ void broadcast_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, BroadcastAddTiling tiling)
{
    KernelBroadcastAdd op;
    op.Init(x, y, z, tiling);
    op.Process();
}
