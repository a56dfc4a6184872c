// Deliberately broken: a 128 KB input buffer leaves too little UB for the output; the InitBuffer that tips
// the total over is the small one. The emulator must report exactly one error of the category on the line
// marked EXPECT, naming the largest buffer's InitBuffer too (EmulatorCauseMessageTest).
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void ub_overflow_large_first_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(inQueue, 1, 131072);
    pipe.InitBuffer(outQueue, 1, 65568);  // EXPECT: ub-overflow
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(64);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(64);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(ub_overflow_large_first_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
