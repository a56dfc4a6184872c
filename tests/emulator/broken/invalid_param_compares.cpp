// Deliberately broken: Compares in count form over 100 floats (400 bytes). The count form compares
// whole 256-byte repeats only, so the last 36 elements are not compared on hardware and their mask bits
// keep stale values. The emulator must report exactly one error of the category on the line marked
// EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 128;
constexpr uint32_t VALID = 100;

extern "C" __global__ __aicore__ void invalid_param_compares_kernel(GM_ADDR x, GM_ADDR m)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(outQ, 1, N / 8);
    GlobalTensor<float> xGm;
    GlobalTensor<uint8_t> mGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    mGm.SetGlobalBuffer((__gm__ uint8_t *)m, 32);
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    DataCopy(xLocal, xGm, N);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<float>();
    LocalTensor<uint8_t> mLocal = outQ.AllocTensor<uint8_t>();
    Compares(mLocal, xLocal, 0.0f, CMPMODE::GE, VALID);  // EXPECT: invalid-param
    outQ.EnQue(mLocal);
    inQ.FreeTensor(xLocal);
    mLocal = outQ.DeQue<uint8_t>();
    DataCopy(mGm, mLocal, 32);
    outQ.FreeTensor(mLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *m = (uint8_t *)AscendC::GmAlloc(32);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(invalid_param_compares_kernel, 1, x, m);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)m);
    return 0;
}
