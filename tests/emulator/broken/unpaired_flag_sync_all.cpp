// Deliberately broken: block 1 returns early, before the SyncAll every other block waits in. On hardware the
// waiting cores hang; the emulator reports that hang at the SyncAll the other blocks wait in (unpaired-flag:
// the barrier's cross-core wait whose matching set never comes, docs/emulator.md "SyncAll").
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCKS = 3;
constexpr uint32_t TILE = 256;

extern "C" __global__ __aicore__ void sync_all_skipped(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    const uint32_t b = GetBlockIdx();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + TILE * b, TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y + TILE * b, TILE);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, TILE * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, TILE);
    PipeBarrier<PIPE_ALL>();
    if (b == 1) return;  // the bug: this block never reaches the SyncAll below
    SyncAll();  // EXPECT: unpaired-flag
    DataCopy(yGm, t, TILE);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(BLOCKS * TILE * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(BLOCKS * TILE * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(sync_all_skipped, BLOCKS, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
