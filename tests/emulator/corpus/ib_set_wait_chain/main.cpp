#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void ib_set_wait_chain_custom(GM_ADDR x, GM_ADDR y, GM_ADDR flags, GM_ADDR out);

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t len = 64, blockDim = 3;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(len * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(len * sizeof(float));
    uint8_t *flags = (uint8_t *)AscendC::GmAlloc(8 * 8 * sizeof(int32_t));
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(len * sizeof(float));
    float *xf = reinterpret_cast<float *>(x), *yf = reinterpret_cast<float *>(y), *of = reinterpret_cast<float *>(out);
    for (uint32_t i = 0; i < len; i++) {
        xf[i] = static_cast<float>(i) * 0.5f;
        yf[i] = static_cast<float>(i % 7) - 3.0f;
        of[i] = NAN;
    }
    std::memset(flags, 0, 8 * 8 * sizeof(int32_t));  // the flags must start at 0 (the API reference)
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(ib_set_wait_chain_custom, blockDim, x, y, flags, out);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < len; i++) {
        const float ref = xf[i] + 2.0f * yf[i];
        if (!(std::fabs(of[i] - ref) <= 1e-5f)) {
            std::printf("out[%u]: expected %g actual %g\n", i, ref, of[i]);
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)flags);
    AscendC::GmFree((void *)out);
    std::printf("ib_set_wait_chain: %u mismatches\n%s\n", bad, bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
