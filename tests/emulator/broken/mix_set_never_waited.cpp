// SPDX-License-Identifier: MIT
// Deliberately broken: the AIC announces its data twice (flag 2), the AIVs wait once. The second set is
// never consumed; the emulator reports it at the set when the kernel ends (unpaired-flag, docs/emulator.md
// "Mixed AIC/AIV kernels").
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t TILE = 256;

extern "C" __global__ __aicore__ void mix_set_never_waited(GM_ADDR x, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    TPipe pipe;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + TILE * GetBlockIdx(), TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y + TILE * GetBlockIdx(), TILE);
    if ASCEND_IS_AIC {
        CrossCoreSetFlag<2, PIPE_FIX>(2);
        CrossCoreSetFlag<2, PIPE_FIX>(2);  // EXPECT: unpaired-flag
    }
    if ASCEND_IS_AIV {
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, TILE * sizeof(float));
        LocalTensor<float> t = buf.Get<float>();
        CrossCoreWaitFlag(2);
        DataCopy(t, xGm, TILE);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, t, TILE);
    }
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(2 * TILE * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(2 * TILE * sizeof(float));
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mix_set_never_waited, 2, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
