// Deliberately broken: the result tensor is EnQue'd to the output queue but the consumer side (DeQue,
// copy out, FreeTensor) was forgotten. One tile per block, so nothing hangs; on hardware the queue's
// buffer is never given back. The emulator must report the leak at kernel end as exactly one error of the
// category on the line marked EXPECT: the EnQue whose tensor is never DeQue'd.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t TILE = 128;

extern "C" __global__ __aicore__ void queue_leak_enqueued_never_dequeued_kernel(GM_ADDR x)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, TILE);
    pipe.InitBuffer(inQueue, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQueue, 1, TILE * sizeof(float));

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, TILE);
    inQueue.EnQue(xLocal);
    LocalTensor<float> xIn = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Abs(yLocal, xIn, TILE);
    inQueue.FreeTensor(xIn);
    outQueue.EnQue(yLocal);  // EXPECT: queue-misuse
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(queue_leak_enqueued_never_dequeued_kernel, 1, x);
    AscendC::GmFree((void *)x);
    return 0;
}
