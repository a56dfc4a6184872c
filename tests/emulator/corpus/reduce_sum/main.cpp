#include <cmath>
#include <cstdint>
#include <cstdio>
#include "tikicpulib.h"

__global__ __aicore__ void reduce_sum_custom(GM_ADDR x, GM_ADDR partials, uint32_t blockLength);

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t blockDim = 8;
    constexpr uint32_t blockLength = 8 * 1024;
    constexpr uint32_t total = blockDim * blockLength;
    constexpr uint32_t partialStride = 8;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(total * sizeof(float));
    uint8_t *partials = (uint8_t *)AscendC::GmAlloc(blockDim * partialStride * sizeof(float));
    float *xf = reinterpret_cast<float *>(x);
    float *pf = reinterpret_cast<float *>(partials);
    for (uint32_t i = 0; i < total; i++) {
        // mixed signs, a per-block bias so that every partial is different
        xf[i] = static_cast<float>((i * 40503u) % 1999u) / 1000.0f - 0.9f + static_cast<float>(i / blockLength) * 0.25f;
    }
    for (uint32_t i = 0; i < blockDim * partialStride; i++) {
        pf[i] = NAN;
    }

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(reduce_sum_custom, blockDim, x, partials, blockLength);

    uint32_t bad = 0;
    double maxRelErr = 0.0;
    double total64 = 0.0;
    double totalFromPartials = 0.0;
    for (uint32_t b = 0; b < blockDim; b++) {
        double ref = 0.0;
        double absSum = 0.0;
        for (uint32_t i = 0; i < blockLength; i++) {
            ref += xf[b * blockLength + i];
            absSum += std::fabs(xf[b * blockLength + i]);
        }
        double got = pf[b * partialStride];
        // float accumulation over 8 tiles then a tree reduction: error bounded by a few ulp of the abs sum
        double err = std::fabs(got - ref);
        double rel = err / absSum;
        if (!(rel <= maxRelErr)) maxRelErr = rel;
        if (!(rel <= 1e-5)) {
            std::printf("block %u: expected partial %.9g actual %.9g\n", b, ref, got);
            bad++;
        }
        total64 += ref;
        totalFromPartials += got;
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)partials);
    std::printf("reduce_sum: total %.9g (reference %.9g), max rel error %.3g, mismatches %u\n", totalFromPartials, total64,
                maxRelErr, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
