// Deliberately broken: RmsNorm on [1, 8, 128] half data needs a sharedTmpBuffer of at least
// (2 * 128 + 8) floats = 1056 bytes (GetRmsNormMaxMinTmpSize: half data is cast to float twice); this
// kernel sizes it as for float data (544 bytes), which the library's intermediate rows overrun on
// hardware. The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t S = 8, H = 128, N = S * H;

extern "C" __global__ __aicore__ void invalid_param_rms_norm_tmp_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf, gammaBuf;
    pipe.InitBuffer(inQ, 1, N * sizeof(half));
    pipe.InitBuffer(outQ, 1, N * sizeof(half));
    pipe.InitBuffer(tmpBuf, (H + 8) * sizeof(float));
    pipe.InitBuffer(gammaBuf, H * sizeof(half));
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, N);
    yGm.SetGlobalBuffer((__gm__ half *)y, N);
    LocalTensor<half> xLocal = inQ.AllocTensor<half>();
    DataCopy(xLocal, xGm, N);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<half>();
    LocalTensor<half> gamma = gammaBuf.Get<half>();
    Duplicate(gamma, half(1.0f), H);
    LocalTensor<half> yLocal = outQ.AllocTensor<half>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    const ge::Shape shape(std::vector<int64_t>{1, S, H});
    RmsNormTiling tiling;
    GetRmsNormTilingInfo(shape, shape, 8 * 1024, sizeof(half), tiling);
    RmsNorm<half>(yLocal, xLocal, gamma, tmp, half(1e-5f), tiling);  // EXPECT: invalid-param
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
    ICPU_RUN_KF(invalid_param_rms_norm_tmp_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
