#include <cstdint>
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void determine_order_custom(GM_ADDR values, GM_ADDR out, GM_ADDR workspace);

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t len = 8, blockDim = 4, rounds = 2;
    const float perBlock[blockDim] = {1e8f, -1e8f, 1.0f, 1.0f};
    uint8_t *values = (uint8_t *)AscendC::GmAlloc(blockDim * len * sizeof(float));
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(len * sizeof(float));
    uint8_t *ws = (uint8_t *)AscendC::GmAlloc(blockDim * 32);
    float *vf = reinterpret_cast<float *>(values), *of = reinterpret_cast<float *>(out);
    for (uint32_t b = 0; b < blockDim; b++)
        for (uint32_t i = 0; i < len; i++) vf[b * len + i] = perBlock[b];
    std::memset(out, 0, len * sizeof(float));
    std::memset(ws, 0xff, blockDim * 32);  // the reference leaves the workspace's contents to the library
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(determine_order_custom, blockDim, values, out, ws);
    volatile float ref = 0.0f;  // the blocks' order, in float
    for (uint32_t r = 0; r < rounds; r++)
        for (uint32_t b = 0; b < blockDim; b++) ref = ref + perBlock[b];
    uint32_t bad = 0;
    for (uint32_t i = 0; i < len; i++)
        if (of[i] != ref) {
            std::printf("out[%u]: expected %.9g actual %.9g\n", i, static_cast<double>(ref), static_cast<double>(of[i]));
            bad++;
        }
    AscendC::GmFree((void *)values);
    AscendC::GmFree((void *)out);
    AscendC::GmFree((void *)ws);
    std::printf("determine_order: %u mismatches (expected %.9g)\n%s\n", bad, static_cast<double>(ref), bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
