// TBufPool as the samples use it: one pool carved out of the TPipe, its buffers given out for a first
// stage (z = x + y), the pool Reset, and the same bytes given out again for a second stage (w = z * x)
// with a sub-pool. Checked against a host reference.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t N = 1024;
constexpr uint32_t BYTES = N * sizeof(float);

__global__ __aicore__ void buf_pool_custom(GM_ADDR x, GM_ADDR y, GM_ADDR w)
{
    TPipe pipe;
    TBufPool<TPosition::VECCALC> pool;
    pipe.InitBufPool(pool, 3 * BYTES);
    GlobalTensor<float> xGm, yGm, wGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N);
    wGm.SetGlobalBuffer((__gm__ float *)w, N);
    TBuf<TPosition::VECCALC> zBuf;  // survives both stages: from the pipe, not the pool
    pipe.InitBuffer(zBuf, BYTES);
    LocalTensor<float> z = zBuf.Get<float>();

    // Stage 1: z = x + y.
    TQue<QuePosition::VECIN, 1> inX, inY;
    pool.InitBuffer(inX, 1, BYTES);
    pool.InitBuffer(inY, 1, BYTES);
    LocalTensor<float> xL = inX.AllocTensor<float>();
    LocalTensor<float> yL = inY.AllocTensor<float>();
    DataCopy(xL, xGm, N);
    DataCopy(yL, yGm, N);
    inX.EnQue(xL);
    inY.EnQue(yL);
    xL = inX.DeQue<float>();
    yL = inY.DeQue<float>();
    Add(z, xL, yL, N);
    inX.FreeTensor(xL);
    inY.FreeTensor(yL);
    pool.Reset();

    // Stage 2: the same bytes again, through a sub-pool: w = z * x.
    TBufPool<TPosition::VECCALC> stage2;
    pool.InitBufPool(stage2, 2 * BYTES);
    TQue<QuePosition::VECIN, 1> inX2;
    TQue<QuePosition::VECOUT, 1> outW;
    stage2.InitBuffer(inX2, 1, BYTES);
    stage2.InitBuffer(outW, 1, BYTES);
    LocalTensor<float> x2 = inX2.AllocTensor<float>();
    DataCopy(x2, xGm, N);
    inX2.EnQue(x2);
    x2 = inX2.DeQue<float>();
    LocalTensor<float> wL = outW.AllocTensor<float>();
    Mul(wL, z, x2, N);
    outW.EnQue(wL);
    inX2.FreeTensor(x2);
    wL = outW.DeQue<float>();
    DataCopy(wGm, wL, N);
    outW.FreeTensor(wL);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(BYTES);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(BYTES);
    uint8_t *w = (uint8_t *)AscendC::GmAlloc(BYTES);
    float *xf = reinterpret_cast<float *>(x);
    float *yf = reinterpret_cast<float *>(y);
    float *wf = reinterpret_cast<float *>(w);
    for (uint32_t i = 0; i < N; i++) {
        xf[i] = static_cast<float>(i % 19u) * 0.5f - 4.0f;
        yf[i] = static_cast<float>(i % 23u) * 0.25f;
        wf[i] = NAN;
    }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(buf_pool_custom, 1, x, y, w);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < N; i++) {
        const float ref = (xf[i] + yf[i]) * xf[i];
        if (wf[i] != ref) {
            if (bad < 10) std::printf("index %u: %g, expected %g\n", i, wf[i], ref);
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)w);
    std::printf("buf_pool: %u elements, mismatches %u\n", N, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
