// Deliberately broken: DeQue on the input queue after the copy-in forgot its EnQue (a hang on hardware).
// The emulator must report exactly one error of the category on the line marked EXPECT: the copy the EnQue
// should have followed (the cause), not the DeQue that hangs (the symptom).
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t TILE = 128;

extern "C" __global__ __aicore__ void queue_deque_empty_kernel(GM_ADDR x, GM_ADDR y)
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
    DataCopy(xLocal, xGm, TILE);  // EXPECT: queue-misuse
    LocalTensor<half> xIn = inQueue.DeQue<half>();
    LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
    Relu(yLocal, xIn, TILE);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xIn);
    yLocal = outQueue.DeQue<half>();
    DataCopy(yGm, yLocal, TILE);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(half));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(half));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(queue_deque_empty_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
