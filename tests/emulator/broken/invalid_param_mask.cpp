// Deliberately broken: Add in mask/repeat form on half with a continuous mask of 200; one repeat holds at most
// 128 halves, so the valid range is 1..128. (repeatTime is uint8_t in the real signature, so a repeat
// count over 255 cannot reach the API; an out-of-range mask is the parameter bug that does.)
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t TILE = 256;  // two repeats of 128 halves

extern "C" __global__ __aicore__ void invalid_param_mask_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, 1> outQueueZ;
    GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, TILE);
    yGm.SetGlobalBuffer((__gm__ half *)y, TILE);
    zGm.SetGlobalBuffer((__gm__ half *)z, TILE);
    pipe.InitBuffer(inQueueX, 1, TILE * sizeof(half));
    pipe.InitBuffer(inQueueY, 1, TILE * sizeof(half));
    pipe.InitBuffer(outQueueZ, 1, TILE * sizeof(half));

    LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
    LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
    DataCopy(xLocal, xGm, TILE);
    DataCopy(yLocal, yGm, TILE);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
    xLocal = inQueueX.DeQue<half>();
    yLocal = inQueueY.DeQue<half>();
    LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
    uint64_t mask = 200;  // meant to be "elements per repeat", but a repeat of halves is 128 wide
    uint8_t repeatTime = 2;
    Add(zLocal, xLocal, yLocal, mask, repeatTime, {1, 1, 1, 8, 8, 8});  // EXPECT: invalid-param
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
    zLocal = outQueueZ.DeQue<half>();
    DataCopy(zGm, zLocal, TILE);
    outQueueZ.FreeTensor(zLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(half));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(half));
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(half));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(invalid_param_mask_kernel, 1, x, y, z);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    return 0;
}
