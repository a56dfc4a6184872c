// Deliberately broken: ReduceRepeat<MAX> on float with the default [value, index] order writes 8-byte
// pairs, so its destination must be 8-byte aligned; the pairs are written at element 1 (byte 4) of the
// output tile. The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 512;

extern "C" __global__ __aicore__ void misaligned_reduce_repeat_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(outQ, 1, 64 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    DataCopy(xLocal, xGm, N);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<float>();
    LocalTensor<float> yLocal = outQ.AllocTensor<float>();
    Duplicate(yLocal, 0.0f, 64);
    ReduceRepeat<ReduceType::MAX, float>(yLocal[1], xLocal, 64, N / 64, 1, 1, 8);  // EXPECT: misaligned-copy
    outQ.EnQue(yLocal);
    inQ.FreeTensor(xLocal);
    yLocal = outQ.DeQue<float>();
    DataCopy(yGm, yLocal, 64);
    outQ.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(64 * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(misaligned_reduce_repeat_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
