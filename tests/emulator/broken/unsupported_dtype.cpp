// Deliberately broken: Duplicate on int8_t. Duplicate supports half/bfloat16/int16/uint16/float/
// int32/uint32 but not 8-bit types; the real compiler rejects it, and so must the emulator's build
// (unsupported-dtype), at the line of the call.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t LENGTH = 256;

extern "C" __global__ __aicore__ void unsupported_dtype_kernel(GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<int8_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int8_t *)y, LENGTH);
    pipe.InitBuffer(outQueue, 1, LENGTH * sizeof(int8_t));

    LocalTensor<int8_t> yLocal = outQueue.AllocTensor<int8_t>();
    Duplicate(yLocal, static_cast<int8_t>(1), LENGTH);  // EXPECT: unsupported-dtype
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<int8_t>();
    DataCopy(yGm, yLocal, LENGTH);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(LENGTH);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(unsupported_dtype_kernel, 1, y);
    AscendC::GmFree((void *)y);
    return 0;
}
