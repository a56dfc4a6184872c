// Deliberately broken: reads 256 floats starting at element 128 of a GlobalTensor set up with 256 elements.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t LENGTH = 256;

extern "C" __global__ __aicore__ void gm_out_of_bounds_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y, LENGTH);
    pipe.InitBuffer(inQueue, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(outQueue, 1, LENGTH * sizeof(float));

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm[LENGTH / 2], LENGTH);  // EXPECT: gm-out-of-bounds
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Adds(yLocal, xLocal, 1.0f, LENGTH);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, LENGTH);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    // The GM allocation is large enough: only the GlobalTensor's own range is exceeded.
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(2 * LENGTH * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(gm_out_of_bounds_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
