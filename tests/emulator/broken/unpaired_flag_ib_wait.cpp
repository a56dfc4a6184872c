// Deliberately broken: block 1 waits with IBWait for block 0's flag, but block 0 sets event 1 instead of
// event 0, so the flag block 1 polls never becomes 1: on hardware block 1 hangs. The emulator must report
// exactly one error of the category on the line marked EXPECT, once block 0 has ended.
#include <cstdint>
#include <cstring>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void unpaired_flag_ib_wait_kernel(GM_ADDR flags)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> flagQueue;
    pipe.InitBuffer(flagQueue, 1, 8 * sizeof(int32_t));
    GlobalTensor<int32_t> flagGm;
    flagGm.SetGlobalBuffer((__gm__ int32_t *)flags, 2 * 2 * 8);
    LocalTensor<int32_t> flagBuf = flagQueue.AllocTensor<int32_t>();
    if (GetBlockIdx() == 1) {
        IBWait(flagGm, flagBuf, 0, 0);  // EXPECT: unpaired-flag
    } else {
        IBSet(flagGm, flagBuf, 0, 1);
    }
    flagQueue.FreeTensor(flagBuf);
}

int main()
{
    uint8_t *flags = (uint8_t *)AscendC::GmAlloc(2 * 2 * 8 * sizeof(int32_t));
    std::memset(flags, 0, 2 * 2 * 8 * sizeof(int32_t));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(unpaired_flag_ib_wait_kernel, 2, flags);
    AscendC::GmFree((void *)flags);
    return 0;
}
