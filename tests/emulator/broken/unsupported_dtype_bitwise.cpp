// Deliberately broken: And on float. The bitwise ops (And, Or, Not) take int16_t/uint16_t only; the real
// compiler rejects a float operand, and so must the emulator's build (unsupported-dtype), at the line of
// the call.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t LENGTH = 256;

extern "C" __global__ __aicore__ void unsupported_dtype_bitwise_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y, LENGTH);
    pipe.InitBuffer(inQueue, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(outQueue, 1, LENGTH * sizeof(float));

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, LENGTH);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    And(yLocal, xLocal, xLocal, LENGTH);  // EXPECT: unsupported-dtype
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, LENGTH);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(unsupported_dtype_bitwise_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
