// Deliberately broken: the bias GlobalTensor is only set up for blocks 0..2 (an off-by-one in the guard), so
// block 3 reads it through a null GM address and crashes.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCK_LENGTH = 256;

extern "C" __global__ __aicore__ void runtime_crash_kernel(GM_ADDR x, GM_ADDR bias, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, biasGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
    if (GetBlockIdx() < GetBlockNum() - 1) {
        biasGm.SetGlobalBuffer((__gm__ float *)bias + GetBlockIdx(), 1);
    }
    pipe.InitBuffer(inQueue, 1, BLOCK_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueue, 1, BLOCK_LENGTH * sizeof(float));

    float biasValue = biasGm.GetValue(0);  // EXPECT: runtime-crash block=3
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, BLOCK_LENGTH);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Adds(yLocal, xLocal, biasValue, BLOCK_LENGTH);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, BLOCK_LENGTH);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    constexpr uint32_t blockDim = 4;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(blockDim * BLOCK_LENGTH * sizeof(float));
    uint8_t *bias = (uint8_t *)AscendC::GmAlloc(8 * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(blockDim * BLOCK_LENGTH * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(runtime_crash_kernel, blockDim, x, bias, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)bias);
    AscendC::GmFree((void *)y);
    return 0;
}
