// Deliberately broken: DataCopy of 30 halves (60 bytes, not a multiple of 32): hardware would silently copy 32 bytes.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t LENGTH = 30;

extern "C" __global__ __aicore__ void misaligned_copy_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ half *)y, LENGTH);
    pipe.InitBuffer(inQueue, 1, 32 * sizeof(half));
    pipe.InitBuffer(outQueue, 1, 32 * sizeof(half));

    LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
    DataCopy(xLocal, xGm, LENGTH);  // EXPECT: misaligned-copy
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<half>();
    LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
    Abs(yLocal, xLocal, LENGTH);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<half>();
    DataCopyExtParams params{1, LENGTH * sizeof(half), 0, 0, 0};
    DataCopyPad(yGm, yLocal, params);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(64 * sizeof(half));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(64 * sizeof(half));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(misaligned_copy_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
