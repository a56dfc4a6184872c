// Deliberately broken: Gather's offsets are byte offsets, but this kernel fills them with element
// indices (reversing 256 halves), so every odd index is not a multiple of sizeof(half) and the data
// lands shifted on hardware. The emulator must report exactly one error of the category on the line
// marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;

extern "C" __global__ __aicore__ void invalid_param_gather_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> offBuf;
    pipe.InitBuffer(inQ, 1, N * sizeof(half));
    pipe.InitBuffer(outQ, 1, N * sizeof(half));
    pipe.InitBuffer(offBuf, N * sizeof(uint32_t));
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, N);
    yGm.SetGlobalBuffer((__gm__ half *)y, N);
    LocalTensor<half> xLocal = inQ.AllocTensor<half>();
    DataCopy(xLocal, xGm, N);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<half>();
    LocalTensor<uint32_t> offsets = offBuf.Get<uint32_t>();
    for (uint32_t i = 0; i < N; i++) offsets.SetValue(i, N - 1 - i);  // element indices, not bytes
    LocalTensor<half> yLocal = outQ.AllocTensor<half>();
    Gather(yLocal, xLocal, offsets, 0, N);  // EXPECT: invalid-param
    outQ.EnQue(yLocal);
    inQ.FreeTensor(xLocal);
    yLocal = outQ.DeQue<half>();
    DataCopy(yGm, yLocal, N);
    outQ.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(half));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(N * sizeof(half));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(invalid_param_gather_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
