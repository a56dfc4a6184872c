#include <cmath>
#include <cstdint>
#include <cstdio>
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void whole_reduce_rows_custom(GM_ADDR x, GM_ADDR sums);

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t blockDim = 2, rows = 32, cols = 16;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(blockDim * rows * cols * sizeof(float));
    uint8_t *sums = (uint8_t *)AscendC::GmAlloc(blockDim * rows * sizeof(float));
    float *xf = reinterpret_cast<float *>(x);
    float *sf = reinterpret_cast<float *>(sums);
    for (uint32_t i = 0; i < blockDim * rows * cols; i++) xf[i] = static_cast<float>((i * 37u) % 101u) / 8.0f - 6.0f;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(whole_reduce_rows_custom, blockDim, x, sums);
    uint32_t bad = 0;
    for (uint32_t r = 0; r < blockDim * rows; r++) {
        double ref = 0.0;
        for (uint32_t c = 0; c < cols; c++) ref += xf[r * cols + c];
        if (std::fabs(sf[r] - ref) > 1e-4 * (1.0 + std::fabs(ref))) {
            std::printf("row %u: expected %.7g actual %.7g\n", r, ref, sf[r]);
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)sums);
    std::printf("whole_reduce_rows: %u mismatches\n%s\n", bad, bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
