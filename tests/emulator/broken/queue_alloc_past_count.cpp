// Deliberately broken: two AllocTensor on a queue initialised with one buffer and no FreeTensor in between.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t TILE = 128;

extern "C" __global__ __aicore__ void queue_alloc_past_count_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, TILE);
    yGm.SetGlobalBuffer((__gm__ half *)y, TILE);
    pipe.InitBuffer(inQueue, 1, TILE / 2 * sizeof(half));
    pipe.InitBuffer(outQueue, 1, TILE * sizeof(half));

    LocalTensor<half> firstHalf = inQueue.AllocTensor<half>();
    LocalTensor<half> secondHalf = inQueue.AllocTensor<half>();  // EXPECT: queue-misuse
    DataCopy(firstHalf, xGm, TILE / 2);
    DataCopy(secondHalf, xGm[TILE / 2], TILE / 2);
    inQueue.EnQue(firstHalf);
    inQueue.EnQue(secondHalf);
    firstHalf = inQueue.DeQue<half>();
    secondHalf = inQueue.DeQue<half>();
    LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
    Abs(yLocal, firstHalf, TILE / 2);
    Abs(yLocal[TILE / 2], secondHalf, TILE / 2);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(firstHalf);
    inQueue.FreeTensor(secondHalf);
    yLocal = outQueue.DeQue<half>();
    DataCopy(yGm, yLocal, TILE);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(half));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(half));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(queue_alloc_past_count_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
