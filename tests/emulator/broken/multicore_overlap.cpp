// Deliberately broken: the output GlobalTensor forgets the per-block offset, so both blocks write the same
// GM range (the input side is offset correctly).
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCK_LENGTH = 512;

extern "C" __global__ __aicore__ void multicore_overlap_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y, BLOCK_LENGTH);  // EXPECT: multicore-overlap
    pipe.InitBuffer(inQueue, 1, BLOCK_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueue, 1, BLOCK_LENGTH * sizeof(float));

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, BLOCK_LENGTH);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Muls(yLocal, xLocal, 3.0f, BLOCK_LENGTH);
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
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(multicore_overlap_kernel, blockDim, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
