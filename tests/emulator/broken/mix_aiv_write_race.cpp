// Deliberately broken: in a KERNEL_TYPE_MIX_AIC_1_2 kernel both AIVs of an AI core write the core's slice
// (offset by the core, GetBlockIdx() / GetSubBlockNum(), but not by GetSubBlockIdx()), and no cross-core
// flag orders them: which AIV's bytes remain depends on which finishes last. multicore-overlap at the
// store, naming the two AIVs of one block (docs/emulator.md, "Ordering between cores").
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t SLICE = 256;

extern "C" __global__ __aicore__ void mix_aiv_write_race(GM_ADDR x, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, SLICE * sizeof(float));
        LocalTensor<float> t = buf.Get<float>();
        const uint32_t core = GetBlockIdx() / GetSubBlockNum();
        GlobalTensor<float> xGm, yGm;
        xGm.SetGlobalBuffer((__gm__ float *)x + SLICE * core, SLICE);
        yGm.SetGlobalBuffer((__gm__ float *)y + SLICE * core, SLICE);
        DataCopy(t, xGm, SLICE);
        PipeBarrier<PIPE_ALL>();
        Muls(t, t, static_cast<float>(GetSubBlockIdx() + 1), SLICE);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, t, SLICE);  // EXPECT: multicore-overlap
    }
}

int main()
{
    constexpr uint32_t blockDim = 2;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(blockDim * SLICE * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(blockDim * SLICE * sizeof(float));
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mix_aiv_write_race, blockDim, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
