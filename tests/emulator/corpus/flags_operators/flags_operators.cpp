// The CCE spellings older kernel-launch samples use: set_flag/wait_flag between the copy pipes and the
// vector pipe (no queues), and the LocalTensor operator forms `z = x * y`, `w = z + x`, `m = x < y`.
// MTE2 -> V and V -> MTE3 are not ordered by auto-sync, so a wrong or ignored flag shows up as a
// missing-sync false alarm here.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t LENGTH = 1024;  // floats per block: 4096 bytes, whole 256-byte Compare repeats

__global__ __aicore__ void flags_operators_custom(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR m)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, zBuf, wBuf, mBuf;
    pipe.InitBuffer(xBuf, LENGTH * sizeof(float));
    pipe.InitBuffer(yBuf, LENGTH * sizeof(float));
    pipe.InitBuffer(zBuf, LENGTH * sizeof(float));
    pipe.InitBuffer(wBuf, LENGTH * sizeof(float));
    pipe.InitBuffer(mBuf, LENGTH / 8);
    GlobalTensor<float> xGm, yGm, wGm;
    GlobalTensor<uint8_t> mGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + LENGTH * GetBlockIdx(), LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y + LENGTH * GetBlockIdx(), LENGTH);
    wGm.SetGlobalBuffer((__gm__ float *)w + LENGTH * GetBlockIdx(), LENGTH);
    mGm.SetGlobalBuffer((__gm__ uint8_t *)m + LENGTH / 8 * GetBlockIdx(), LENGTH / 8);

    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<float> yLocal = yBuf.Get<float>();
    LocalTensor<float> zLocal = zBuf.Get<float>();
    LocalTensor<float> wLocal = wBuf.Get<float>();
    LocalTensor<uint8_t> mLocal = mBuf.Get<uint8_t>();
    DataCopy(xLocal, xGm, LENGTH);
    DataCopy(yLocal, yGm, LENGTH);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    zLocal = xLocal * yLocal;
    wLocal = zLocal + xLocal;
    mLocal = xLocal < yLocal;
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    DataCopy(wGm, wLocal, LENGTH);
    DataCopy(mGm, mLocal, LENGTH / 8);
}

int main()
{
    constexpr uint32_t blockDim = 2;
    constexpr uint32_t total = blockDim * LENGTH;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(total * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(total * sizeof(float));
    uint8_t *w = (uint8_t *)AscendC::GmAlloc(total * sizeof(float));
    uint8_t *m = (uint8_t *)AscendC::GmAlloc(total / 8);
    float *xf = reinterpret_cast<float *>(x);
    float *yf = reinterpret_cast<float *>(y);
    float *wf = reinterpret_cast<float *>(w);
    for (uint32_t i = 0; i < total; i++) {
        xf[i] = static_cast<float>((i * 7u) % 41u) * 0.25f - 5.0f;
        yf[i] = static_cast<float>((i * 11u + 3u) % 37u) * 0.5f - 9.0f;
        wf[i] = NAN;
    }
    std::memset(m, 0xAA, total / 8);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(flags_operators_custom, blockDim, x, y, w, m);

    uint32_t bad = 0;
    for (uint32_t i = 0; i < total; i++) {
        const float ref = xf[i] * yf[i] + xf[i];
        const bool bit = ((m[i / 8] >> (i % 8)) & 1u) != 0;
        if (wf[i] != ref || bit != (xf[i] < yf[i])) {
            if (bad < 10) std::printf("index %u: x %g y %g w %g (expected %g) bit %d\n", i, xf[i], yf[i], wf[i], ref, bit);
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)w);
    AscendC::GmFree((void *)m);
    std::printf("flags_operators: %u elements, mismatches %u\n", total, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
