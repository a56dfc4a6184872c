// Deliberately broken: SoftMax on [8, 64] floats needs a sharedTmpBuffer of at least
// GetSoftMaxMinTmpSize = (8 + 64 + 64) floats = 544 bytes; this kernel sizes it for the data row alone
// (256 bytes), which the library's intermediate rows overrun on hardware. The emulator must report
// exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t M = 8, K = 64, N = M * K;

extern "C" __global__ __aicore__ void invalid_param_softmax_tmp_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf, stats;
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(outQ, 1, N * sizeof(float));
    pipe.InitBuffer(tmpBuf, K * sizeof(float));
    pipe.InitBuffer(stats, 2 * M * 32);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N);
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    DataCopy(xLocal, xGm, N);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<float>();
    LocalTensor<float> yLocal = outQ.AllocTensor<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    LocalTensor<float> st = stats.Get<float>();
    SoftMaxTiling tiling;
    const ge::Shape shape2d(std::vector<int64_t>{M, K});
    SoftMaxTilingFunc(shape2d, sizeof(float), GetSoftMaxMinTmpSize(shape2d, sizeof(float), false), tiling);
    SoftMaxShapeInfo shape{M, K, M, K};
    SoftMax<float>(yLocal, st, st[M * 8], xLocal, tmp, tiling, shape);  // EXPECT: invalid-param
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
    ICPU_RUN_KF(invalid_param_softmax_tmp_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
