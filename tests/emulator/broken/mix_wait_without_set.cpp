// SPDX-License-Identifier: MIT
// Deliberately broken: a mix kernel whose AIVs wait for flag 4 while the AIC sets flag 5 (a typo in the
// flag id). On hardware both AIVs hang; the emulator reports the hang at the wait once the AIC has ended
// (unpaired-flag, docs/emulator.md "Mixed AIC/AIV kernels").
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t TILE = 256;

extern "C" __global__ __aicore__ void mix_wait_without_set(GM_ADDR ws, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    TPipe pipe;
    GlobalTensor<float> wsGm, yGm;
    wsGm.SetGlobalBuffer((__gm__ float *)ws + TILE * GetBlockIdx(), TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y + TILE * GetBlockIdx(), TILE);
    if ASCEND_IS_AIC {
        CrossCoreSetFlag<2, PIPE_FIX>(5);
    }
    if ASCEND_IS_AIV {
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, TILE * sizeof(float));
        LocalTensor<float> t = buf.Get<float>();
        CrossCoreWaitFlag(4);  // EXPECT: unpaired-flag
        DataCopy(t, wsGm, TILE);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, t, TILE);
    }
}

int main()
{
    uint8_t *ws = (uint8_t *)AscendC::GmAlloc(4 * TILE * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(4 * TILE * sizeof(float));
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mix_wait_without_set, 1, ws, y);
    AscendC::GmFree((void *)ws);
    AscendC::GmFree((void *)y);
    return 0;
}
