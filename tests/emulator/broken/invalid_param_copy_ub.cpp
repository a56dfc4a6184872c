// Deliberately broken: Copy's dstRepeatSize is a 12-bit field (0..4095 DataBlocks); this kernel asks for
// 4096 to leave a 128 KiB gap between rows, which wraps to 0 on hardware (the second row overwrites the
// first).
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 512;

extern "C" __global__ __aicore__ void invalid_param_copy_ub_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(outQ, 1, N * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N);
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    DataCopy(xLocal, xGm, N);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<float>();
    LocalTensor<float> yLocal = outQ.AllocTensor<float>();
    Copy(yLocal, xLocal, 64, 2, {1, 1, 4096, 8});  // EXPECT: invalid-param
    outQ.EnQue(yLocal);
    inQ.FreeTensor(xLocal);
    yLocal = outQ.DeQue<float>();
    DataCopy(yGm, yLocal, N);
    outQ.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(invalid_param_copy_ub_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
