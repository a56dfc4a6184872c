#include <cmath>
#include <cstdint>
#include <cstdio>
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void abs_unaligned_tail(GM_ADDR x, GM_ADDR y, uint32_t blockLength);

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t blockDim = 4;
    constexpr uint32_t blockLength = 4 * 256 + 13;
    constexpr uint32_t totalLength = blockDim * blockLength;
    // One guard element after the output: DataCopyPad must write exactly 13 elements of the tail.
    size_t inBytes = totalLength * sizeof(half);
    size_t outBytes = (totalLength + 16) * sizeof(half);
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(inBytes);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(outBytes);
    half *xh = reinterpret_cast<half *>(x);
    half *yh = reinterpret_cast<half *>(y);
    for (uint32_t i = 0; i < totalLength; i++) {
        float v = static_cast<float>(static_cast<int32_t>((i * 2654435761u) % 20001u) - 10000) / 16.0f;
        xh[i] = static_cast<half>(v);
    }
    const half poison = static_cast<half>(-7.0f);
    for (uint32_t i = 0; i < totalLength + 16; i++) {
        yh[i] = poison;
    }

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(abs_unaligned_tail, blockDim, x, y, blockLength);

    uint32_t bad = 0;
    double maxAbsErr = 0.0;
    for (uint32_t i = 0; i < totalLength; i++) {
        double ref = std::fabs(static_cast<double>(static_cast<float>(xh[i])));
        double got = static_cast<float>(yh[i]);
        double err = std::fabs(got - ref);
        if (err > maxAbsErr) maxAbsErr = err;
        if (err != 0.0) {  // |x| is exact
            if (bad < 10) std::printf("index %u (block %u): expected %.4f actual %.4f\n", i, i / blockLength, ref, got);
            bad++;
        }
    }
    for (uint32_t i = totalLength; i < totalLength + 16; i++) {
        if (static_cast<float>(yh[i]) != static_cast<float>(poison)) {
            std::printf("index %u past the output was overwritten\n", i);
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    std::printf("abs_unaligned_tail: %u elements, max abs error %.3g, mismatches %u\n", totalLength, maxAbsErr, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
