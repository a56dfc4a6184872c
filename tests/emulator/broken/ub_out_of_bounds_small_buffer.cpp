// Deliberately broken: one queue's InitBuffer is half the tile the kernel copies into it (the other two
// buffers hold the whole tile), so the cause is that InitBuffer, not the copy that overruns it.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t TILE = 256;

extern "C" __global__ __aicore__ void ub_out_of_bounds_small_buffer_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, 1> outQueueZ;
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y, TILE);
    zGm.SetGlobalBuffer((__gm__ float *)z, TILE);
    pipe.InitBuffer(inQueueX, 1, TILE / 2 * sizeof(float));  // EXPECT: ub-out-of-bounds
    pipe.InitBuffer(inQueueY, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQueueZ, 1, TILE * sizeof(float));

    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    DataCopy(xLocal, xGm, TILE);
    DataCopy(yLocal, yGm, TILE);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
    xLocal = inQueueX.DeQue<float>();
    yLocal = inQueueY.DeQue<float>();
    LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    Add(zLocal, xLocal, yLocal, TILE);
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
    zLocal = outQueueZ.DeQue<float>();
    DataCopy(zGm, zLocal, TILE);
    outQueueZ.FreeTensor(zLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(ub_out_of_bounds_small_buffer_kernel, 1, x, y, z);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    return 0;
}
