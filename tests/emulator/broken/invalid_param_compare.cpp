// Deliberately broken: Compare in count form over 100 floats = 400 bytes, not a multiple of 256; hardware
// compares only the first 256 bytes and silently leaves the rest of the mask stale.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t LENGTH = 128;
constexpr uint32_t COMPARE_COUNT = 100;

extern "C" __global__ __aicore__ void invalid_param_compare_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, 1> outQueueZ;
    TBuf<TPosition::VECCALC> maskBuf;
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y, LENGTH);
    zGm.SetGlobalBuffer((__gm__ float *)z, LENGTH);
    pipe.InitBuffer(inQueueX, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(maskBuf, 32);

    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    DataCopy(xLocal, xGm, LENGTH);
    DataCopy(yLocal, yGm, LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
    xLocal = inQueueX.DeQue<float>();
    yLocal = inQueueY.DeQue<float>();
    LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
    Compare(mask, xLocal, yLocal, CMPMODE::GT, COMPARE_COUNT);  // EXPECT: invalid-param
    Select(zLocal, mask, xLocal, yLocal, SELMODE::VSEL_TENSOR_TENSOR_MODE, LENGTH);
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
    zLocal = outQueueZ.DeQue<float>();
    DataCopy(zGm, zLocal, LENGTH);
    outQueueZ.FreeTensor(zLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(invalid_param_compare_kernel, 1, x, y, z);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    return 0;
}
