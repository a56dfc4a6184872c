// SPDX-License-Identifier: MIT
// Deliberately broken: flag id 16 on A2/A3, which have cross-core flags 0..15 for modes 0-2 (the API
// reference; a larger id keeps only its low 4 bits and aliases flag 0);
// invalid-param at the set (docs/emulator.md "Mixed AIC/AIV kernels").
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint16_t FLAG_READY = 16;

extern "C" __global__ __aicore__ void mix_flag_id_out_of_range(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    (void)x;
    if ASCEND_IS_AIC {
        CrossCoreSetFlag<2, PIPE_FIX>(FLAG_READY);  // EXPECT: invalid-param
    }
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(1024);
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mix_flag_id_out_of_range, 1, x);
    AscendC::GmFree((void *)x);
    return 0;
}
