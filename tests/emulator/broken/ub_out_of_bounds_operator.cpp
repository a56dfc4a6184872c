// Deliberately broken: the operator form `z = x[16] * y` (meant to skip a 16-element header of x) runs
// over z's size, the whole tile, as the real operator overloads do, so it reads 16 elements past the end
// of x's buffer. The emulator must report exactly one error of the category on the line marked
// EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t TILE = 256;

extern "C" __global__ __aicore__ void ub_out_of_bounds_operator_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inX, inY;
    TQue<QuePosition::VECOUT, 1> outZ;
    pipe.InitBuffer(inX, 1, TILE * sizeof(float));
    pipe.InitBuffer(inY, 1, TILE * sizeof(float));
    pipe.InitBuffer(outZ, 1, TILE * sizeof(float));
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y, TILE);
    zGm.SetGlobalBuffer((__gm__ float *)z, TILE);
    LocalTensor<float> xLocal = inX.AllocTensor<float>();
    LocalTensor<float> yLocal = inY.AllocTensor<float>();
    DataCopy(xLocal, xGm, TILE);
    DataCopy(yLocal, yGm, TILE);
    inX.EnQue(xLocal);
    inY.EnQue(yLocal);
    xLocal = inX.DeQue<float>();
    yLocal = inY.DeQue<float>();
    LocalTensor<float> zLocal = outZ.AllocTensor<float>();
    zLocal = xLocal[16] * yLocal;  // EXPECT: ub-out-of-bounds
    outZ.EnQue(zLocal);
    inX.FreeTensor(xLocal);
    inY.FreeTensor(yLocal);
    zLocal = outZ.DeQue<float>();
    DataCopy(zGm, zLocal, TILE);
    outZ.FreeTensor(zLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(ub_out_of_bounds_operator_kernel, 1, x, y, z);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    return 0;
}
