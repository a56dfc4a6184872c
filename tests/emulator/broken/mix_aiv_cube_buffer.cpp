// SPDX-License-Identifier: MIT
// Deliberately broken: the L0C buffer is set up outside the ASCEND_IS_AIC guard, so the mix kernel's AIVs
// ask for L0C too, which only the AIC has (invalid-param at the InitBuffer, docs/emulator.md "Mixed
// AIC/AIV kernels").
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

extern "C" __global__ __mix__(1, 2) __aicore__ void mix_aiv_cube_buffer(GM_ADDR x)
{
    (void)x;
    TPipe pipe;
    TQue<TPosition::CO1, 1> outQueueCO1;
    pipe.InitBuffer(outQueueCO1, 1, 64 * 64 * sizeof(float));  // EXPECT: invalid-param
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(1024);
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mix_aiv_cube_buffer, 1, x);
    AscendC::GmFree((void *)x);
    return 0;
}
