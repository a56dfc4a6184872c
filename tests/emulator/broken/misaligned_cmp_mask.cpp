// Deliberately broken: GetCmpMask into a UB tensor that starts 8 bytes into its buffer; the reference asks
// for a 16-byte aligned destination (the CMPMASK register is stored as 16 bytes).
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t LENGTH = 64;
constexpr uint32_t MASK_BYTES = 32;

extern "C" __global__ __aicore__ void misaligned_cmp_mask_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR m)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, 1> outQueueM;
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<uint8_t> mGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y, LENGTH);
    mGm.SetGlobalBuffer((__gm__ uint8_t *)m, MASK_BYTES);
    pipe.InitBuffer(inQueueX, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueM, 1, MASK_BYTES);

    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    DataCopy(xLocal, xGm, LENGTH);
    DataCopy(yLocal, yGm, LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
    xLocal = inQueueX.DeQue<float>();
    yLocal = inQueueY.DeQue<float>();
    LocalTensor<uint8_t> mLocal = outQueueM.AllocTensor<uint8_t>();
    Duplicate(mLocal.ReinterpretCast<float>(), 0.0f, MASK_BYTES / sizeof(float));
    BinaryRepeatParams repeatParams;
    Compare(xLocal, yLocal, CMPMODE::GE, LENGTH, repeatParams);
    GetCmpMask(mLocal[8]);  // EXPECT: misaligned-copy
    outQueueM.EnQue(mLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
    mLocal = outQueueM.DeQue<uint8_t>();
    DataCopy(mGm, mLocal, MASK_BYTES);
    outQueueM.FreeTensor(mLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    uint8_t *m = (uint8_t *)AscendC::GmAlloc(MASK_BYTES);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(misaligned_cmp_mask_kernel, 1, x, y, m);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)m);
    return 0;
}
