// SPDX-License-Identifier: MIT
// Deliberately broken: the AIC waits for the AIVs' "buffer free" flag before it sets its own "data ready"
// flag, while the AIVs wait for "data ready" before they set "buffer free": each core waits for the other.
// On hardware the whole block hangs; the emulator finds every core asleep in a CrossCoreWaitFlag nothing
// can release and reports the hang at the waits (unpaired-flag, docs/emulator.md "Mixed AIC/AIV kernels").
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint16_t FLAG_DATA_READY = 1;
constexpr uint16_t FLAG_BUFFER_FREE = 2;

extern "C" __global__ __aicore__ void mix_flags_deadlock(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    (void)x;
    if ASCEND_IS_AIC {
        CrossCoreWaitFlag(FLAG_BUFFER_FREE);  // EXPECT: unpaired-flag
        CrossCoreSetFlag<2, PIPE_FIX>(FLAG_DATA_READY);
    }
    if ASCEND_IS_AIV {
        CrossCoreWaitFlag(FLAG_DATA_READY);
        CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_BUFFER_FREE);
    }
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(1024);
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mix_flags_deadlock, 1, x);
    AscendC::GmFree((void *)x);
    return 0;
}
