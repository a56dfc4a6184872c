// Deliberately broken: block 0 takes one turn (one WaitPreBlock/NotifyNextBlock pair) while block 1 takes
// two, so block 1's second WaitPreBlock waits for a second NotifyNextBlock of block 0 that never comes: on
// hardware it hangs. The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void unpaired_flag_wait_pre_block_kernel(GM_ADDR workspace)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> wsQueue;
    pipe.InitBuffer(wsQueue, 1, 2 * 32 + 32);
    GlobalTensor<int32_t> wsGm;
    wsGm.SetGlobalBuffer((__gm__ int32_t *)workspace, 2 * 8);
    LocalTensor<int32_t> ws = wsQueue.AllocTensor<int32_t>();
    InitDetermineComputeWorkspace(wsGm, ws);
    const uint32_t turns = GetBlockIdx() == 0 ? 1 : 2;
    for (uint32_t t = 0; t < turns; t++) {
        WaitPreBlock(wsGm, ws);  // EXPECT: unpaired-flag
        NotifyNextBlock(wsGm, ws);
    }
    wsQueue.FreeTensor(ws);
}

int main()
{
    uint8_t *ws = (uint8_t *)AscendC::GmAlloc(2 * 32);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(unpaired_flag_wait_pre_block_kernel, 2, ws);
    AscendC::GmFree((void *)ws);
    return 0;
}
