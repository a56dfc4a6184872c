#include <cstdint>
#include <cstdio>
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void neg_padded(GM_ADDR x, GM_ADDR y);

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t elems = 3;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(elems * sizeof(half));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(elems * sizeof(half));
    half *xh = reinterpret_cast<half *>(x);
    half *yh = reinterpret_cast<half *>(y);
    for (uint32_t i = 0; i < elems; i++) {
        xh[i] = static_cast<half>(1.5f + static_cast<float>(i));
    }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(neg_padded, 1, x, y);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < elems; i++) {
        const float want = -(1.5f + static_cast<float>(i));
        if (static_cast<float>(yh[i]) != want) {
            std::printf("index %u: expected %.2f actual %.2f\n", i, want, static_cast<float>(yh[i]));
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    std::printf("gm_allocation_padding: %u elements, mismatches %u\n", elems, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
