// Deliberately broken: block 1 spin-waits on a GM ready flag that no block ever sets (block 0 was supposed to
// publish it), so it hangs; the other blocks finish.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCK_LENGTH = 256;

extern "C" __global__ __aicore__ void timeout_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR ready)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
    pipe.InitBuffer(inQueue, 1, BLOCK_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueue, 1, BLOCK_LENGTH * sizeof(float));

    if (GetBlockIdx() == 1) {
        volatile __gm__ int32_t *readyFlag = (volatile __gm__ int32_t *)ready;
        while (readyFlag[0] == 0) {  // EXPECT: timeout block=1
        }
    }
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, BLOCK_LENGTH);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Relu(yLocal, xLocal, BLOCK_LENGTH);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, BLOCK_LENGTH);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    constexpr uint32_t blockDim = 2;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(blockDim * BLOCK_LENGTH * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(blockDim * BLOCK_LENGTH * sizeof(float));
    uint8_t *ready = (uint8_t *)AscendC::GmAlloc(32);
    *reinterpret_cast<int32_t *>(ready) = 0;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(timeout_kernel, blockDim, x, y, ready);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)ready);
    return 0;
}
