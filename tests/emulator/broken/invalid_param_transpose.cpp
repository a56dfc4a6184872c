// Deliberately broken: the [N,C,H,W] -> [N,H,W,C] Transpose needs a sharedTmpBuffer of (C + 2) tiles of
// 16 x 8 floats (the API reference's table: 2560 bytes for C = 3); this kernel passes 1024 bytes, which
// the library's intermediate tiles overrun on hardware. The emulator must report exactly one error of the
// category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint16_t NN = 2, CC = 3, HH = 2, WW = 4;
constexpr uint32_t N = NN * CC * HH * WW;

extern "C" __global__ __aicore__ void invalid_param_transpose_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(outQ, 1, N * sizeof(float));
    pipe.InitBuffer(tmpBuf, 1024);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N);
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    DataCopy(xLocal, xGm, N);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<float>();
    LocalTensor<float> yLocal = outQ.AllocTensor<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    TransposeParamsExt params(NN, CC, HH, WW, TransposeType::TRANSPOSE_NCHW2NHWC);
    Transpose(yLocal, xLocal, tmp, params);  // EXPECT: invalid-param
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
    ICPU_RUN_KF(invalid_param_transpose_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
