// Deliberately broken: LayerNorm on [1, 8, 64] half data needs a sharedTmpBuffer of at least three
// 32-byte aligned float rows of H plus two aligned float vectors of B*S (GetLayerNormMaxMinTmpSize:
// 3 * 256 + 2 * 32 = 832 bytes, and the tiling is computed for that); this kernel sizes the buffer for
// the three rows only (768 bytes), forgetting the mean and variance scratch half data keeps at its start,
// so the library's last row buffer overruns it on hardware. The emulator must report exactly one error of
// the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t S = 8, H = 64, N = S * H;

extern "C" __global__ __aicore__ void invalid_param_layer_norm_tmp_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf, paramBuf, statBuf;
    pipe.InitBuffer(inQ, 1, N * sizeof(half));
    pipe.InitBuffer(outQ, 1, N * sizeof(half));
    pipe.InitBuffer(tmpBuf, 3 * H * sizeof(float));
    pipe.InitBuffer(paramBuf, 2 * H * sizeof(half));
    pipe.InitBuffer(statBuf, 64);  // mean | variance, 16 halves each
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, N);
    yGm.SetGlobalBuffer((__gm__ half *)y, N);
    LocalTensor<half> xLocal = inQ.AllocTensor<half>();
    DataCopy(xLocal, xGm, N);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<half>();
    LocalTensor<half> params = paramBuf.Get<half>();
    Duplicate(params, half(1.0f), H);
    Duplicate(params[H], half(0.0f), H);
    LocalTensor<half> stats = statBuf.Get<half>();
    LocalTensor<half> yLocal = outQ.AllocTensor<half>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    const ge::Shape shape(std::vector<int64_t>{1, S, H, H});
    LayerNormTiling tiling;
    uint32_t maxTmp = 0, minTmp = 0;
    GetLayerNormMaxMinTmpSize(shape, sizeof(half), false, maxTmp, minTmp);
    GetLayerNormNDTilingInfo(shape, minTmp, sizeof(half), false, tiling);
    PipeBarrier<PIPE_V>();
    LayerNorm<half>(yLocal, stats[0], stats[16], xLocal, params[0], params[H], tmp, half(1e-5f), tiling);  // EXPECT: invalid-param
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
    ICPU_RUN_KF(invalid_param_layer_norm_tmp_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
