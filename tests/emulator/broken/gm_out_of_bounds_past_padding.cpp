// Deliberately broken: copies 64 halves (128 bytes) out of a 3-element fp16 tensor. A device allocation
// of 6 bytes spans 64 (rounded up to 32, plus 32: docs/emulator.md, "GM padding"), so this runs past the
// allocation itself, unlike the 32-byte copy of corpus/gm_allocation_padding.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t COPY_ELEMS = 64;

extern "C" __global__ __aicore__ void past_padding_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x);
    yGm.SetGlobalBuffer((__gm__ half *)y, 64);
    pipe.InitBuffer(inQueue, 1, COPY_ELEMS * sizeof(half));
    pipe.InitBuffer(outQueue, 1, COPY_ELEMS * sizeof(half));
    LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
    DataCopy(xLocal, xGm, COPY_ELEMS);  // EXPECT: gm-out-of-bounds
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<half>();
    LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
    Muls(yLocal, xLocal, static_cast<half>(-1.0f), COPY_ELEMS);
    outQueue.EnQue<half>(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<half>();
    DataCopy(yGm, yLocal, COPY_ELEMS);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(3 * sizeof(half));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(64 * sizeof(half));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(past_padding_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
