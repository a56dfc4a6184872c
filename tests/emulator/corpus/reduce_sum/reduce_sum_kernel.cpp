// Per-block partial sums of a float vector: each block accumulates its tiles into a VECCALC buffer
// with Add, reduces it with ReduceSum, and writes one 32-byte block (partial sum + 7 zeros) to GM.
// The host adds the partials. Declared without extern "C".
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_LENGTH = 1024;
constexpr uint32_t PARTIAL_STRIDE = 8;  // floats per block in the partials buffer: one 32-byte block

class KernelReduceSum {
public:
    __aicore__ inline KernelReduceSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR partials, uint32_t blockLength)
    {
        tileNum = blockLength / TILE_LENGTH;
        xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * GetBlockIdx(), blockLength);
        partialGm.SetGlobalBuffer((__gm__ float *)partials + PARTIAL_STRIDE * GetBlockIdx(), PARTIAL_STRIDE);
        pipe.InitBuffer(inQueue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueue, 1, PARTIAL_STRIDE * sizeof(float));
        pipe.InitBuffer(accBuf, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(workBuf, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, TILE_LENGTH);
        for (uint32_t i = 0; i < tileNum; i++) {
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            Add(acc, acc, xLocal, TILE_LENGTH);
            inQueue.FreeTensor(xLocal);
        }
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        Duplicate(out, 0.0f, PARTIAL_STRIDE);
        ReduceSum(out, acc, work, TILE_LENGTH);
        outQueue.EnQue(out);
        out = outQueue.DeQue<float>();
        DataCopy(partialGm, out, PARTIAL_STRIDE);
        outQueue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> accBuf;
    TBuf<TPosition::VECCALC> workBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> partialGm;
    uint32_t tileNum;
};

__global__ __aicore__ void reduce_sum_custom(GM_ADDR x, GM_ADDR partials, uint32_t blockLength)
{
    KernelReduceSum op;
    op.Init(x, partials, blockLength);
    op.Process();
}
