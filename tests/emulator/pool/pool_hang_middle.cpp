// A block that hangs is killed at KWB_SIM_BLOCK_TIMEOUT_MS and reported as that block's timeout; its
// worker dies with it and the blocks after it still run (docs/emulator.md, "Speed"). 4 blocks, run with
// KWB_SIM_JOBS=1: block 1 spins on a flag nothing sets.
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCKS = 4;

extern "C" __global__ __aicore__ void pool_hang_middle(GM_ADDR out)
{
    const uint32_t b = GetBlockIdx();
    WriteGmByPassDCache<int32_t>((__gm__ int32_t *)out + b, static_cast<int32_t>(b + 1));
    volatile int32_t never = 0;
    if (b == 1)
        while (never == 0) {
        }
}

int main()
{
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(BLOCKS * sizeof(int32_t));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(pool_hang_middle, BLOCKS, out);
    bool ok = true;
    for (uint32_t b = 0; b < BLOCKS; b++)
        if (reinterpret_cast<int32_t *>(out)[b] != static_cast<int32_t>(b + 1)) ok = false;
    std::printf("%s\n", ok ? "OTHERS-RAN" : "OTHERS-MISSING");
    AscendC::GmFree((void *)out);
    return 0;
}
