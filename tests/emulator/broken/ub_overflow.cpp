// Deliberately broken: InitBuffer totals exceed the 192 KB of UB on Ascend910B (96 KB + 128 KB).
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t IN_BYTES = 48 * 1024;
constexpr uint32_t OUT_BYTES = 64 * 1024;

extern "C" __global__ __aicore__ void ub_overflow_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TQue<QuePosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, IN_BYTES / sizeof(float));
    yGm.SetGlobalBuffer((__gm__ float *)y, IN_BYTES / sizeof(float));
    pipe.InitBuffer(inQueue, 2, IN_BYTES);
    pipe.InitBuffer(outQueue, 2, OUT_BYTES);  // EXPECT: ub-overflow

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, IN_BYTES / sizeof(float));
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Muls(yLocal, xLocal, 2.0f, IN_BYTES / sizeof(float));
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, IN_BYTES / sizeof(float));
    outQueue.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(IN_BYTES);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(IN_BYTES);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(ub_overflow_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
