// Host side in CANN CPU-debug style: GmAlloc'd inputs, ICPU_RUN_KF over 8 blocks, a double reference.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "tikicpulib.h"
#include "add_tiling.h"

extern "C" __global__ __aicore__ void add_double_buffer(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTilingData tiling);

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t blockDim = 8;
    constexpr uint32_t totalLength = blockDim * 4096;
    AddTilingData tiling{totalLength, 8};
    size_t byteSize = totalLength * sizeof(half);

    uint8_t *x = (uint8_t *)AscendC::GmAlloc(byteSize);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(byteSize);
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(byteSize);
    half *xh = reinterpret_cast<half *>(x);
    half *yh = reinterpret_cast<half *>(y);
    half *zh = reinterpret_cast<half *>(z);
    for (uint32_t i = 0; i < totalLength; i++) {
        xh[i] = static_cast<half>(static_cast<float>((i * 37u) % 2001u) * 0.125f - 125.0f);
        yh[i] = static_cast<half>(static_cast<float>((i * 101u + 7u) % 997u) * 0.01f - 5.0f);
        zh[i] = static_cast<half>(-999.0f);  // poison
    }

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(add_double_buffer, blockDim, x, y, z, tiling);

    double maxAbsErr = 0.0;
    uint32_t mismatches = 0;
    for (uint32_t i = 0; i < totalLength; i++) {
        double ref = static_cast<double>(static_cast<float>(xh[i])) + static_cast<double>(static_cast<float>(yh[i]));
        double got = static_cast<float>(zh[i]);
        double err = std::fabs(got - ref);
        if (err > maxAbsErr) maxAbsErr = err;
        if (err > 1e-3 * std::fabs(ref) + 1e-5) {
            if (mismatches < 10) std::printf("index %u: expected %.6f, actual %.6f\n", i, ref, got);
            mismatches++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    std::printf("add_double_buffer: %u elements, max abs error %.3g, mismatches %u\n", totalLength, maxAbsErr, mismatches);
    std::printf("%s\n", mismatches == 0 ? "PASS" : "FAIL");
    return mismatches == 0 ? 0 : 1;
}
