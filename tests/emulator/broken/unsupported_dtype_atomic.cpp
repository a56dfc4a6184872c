// Deliberately broken: SetAtomicAdd on uint8_t. The emulator accumulates float, half and int32_t only;
// any other atomic type must fail the build (unsupported-dtype) at the line of the call.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t LENGTH = 256;

extern "C" __global__ __aicore__ void unsupported_dtype_atomic_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    GlobalTensor<uint8_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ uint8_t *)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ uint8_t *)y, LENGTH);
    pipe.InitBuffer(inQueue, 1, LENGTH);

    LocalTensor<uint8_t> xLocal = inQueue.AllocTensor<uint8_t>();
    DataCopy(xLocal, xGm, LENGTH);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<uint8_t>();
    SetAtomicAdd<uint8_t>();  // EXPECT: unsupported-dtype
    DataCopy(yGm, xLocal, LENGTH);
    SetAtomicNone();
    inQueue.FreeTensor(xLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(LENGTH);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(LENGTH);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(unsupported_dtype_atomic_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
