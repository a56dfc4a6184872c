// Deliberately broken: ShiftLeft on int16_t by 20 bits. The shift count of a 16-bit type must lie in
// 0..16 (0..32 for 32-bit types); beyond that the hardware result is undefined. The emulator must report
// exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t LENGTH = 256;

extern "C" __global__ __aicore__ void invalid_param_shift_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<int16_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int16_t *)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ int16_t *)y, LENGTH);
    pipe.InitBuffer(inQueue, 1, LENGTH * sizeof(int16_t));
    pipe.InitBuffer(outQueue, 1, LENGTH * sizeof(int16_t));

    LocalTensor<int16_t> xLocal = inQueue.AllocTensor<int16_t>();
    DataCopy(xLocal, xGm, LENGTH);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<int16_t>();
    LocalTensor<int16_t> yLocal = outQueue.AllocTensor<int16_t>();
    int16_t bits = 20;  // meant for a 32-bit type
    ShiftLeft(yLocal, xLocal, bits, LENGTH);  // EXPECT: invalid-param
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<int16_t>();
    DataCopy(yGm, yLocal, LENGTH);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(int16_t));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(int16_t));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(invalid_param_shift_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
