// Deliberately broken: the dequeued input is never freed. One tile per block, so nothing hangs here; on a
// longer input the next AllocTensor of the queue would wait forever. The emulator must report the leak as
// exactly one error of the category on the line marked EXPECT: the tensor's last use, where the
// FreeTensor belongs.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t TILE = 128;

extern "C" __global__ __aicore__ void queue_leak_free_missing_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, TILE);
    yGm.SetGlobalBuffer((__gm__ half *)y, TILE);
    pipe.InitBuffer(inQueue, 1, TILE * sizeof(half));
    pipe.InitBuffer(outQueue, 1, TILE * sizeof(half));

    LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
    DataCopy(xLocal, xGm, TILE);
    inQueue.EnQue(xLocal);
    LocalTensor<half> xIn = inQueue.DeQue<half>();
    LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
    Relu(yLocal, xIn, TILE);  // EXPECT: queue-misuse
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<half>();
    DataCopy(yGm, yLocal, TILE);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(half));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(half));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(queue_leak_free_missing_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
