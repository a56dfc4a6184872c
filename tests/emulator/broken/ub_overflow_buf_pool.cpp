// Deliberately broken: a TBufPool of two tiles is asked for a third tile's buffer. The pool's bytes are
// all given out, so on hardware the third buffer would overlap whatever follows the pool. The emulator
// must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 1024;
constexpr uint32_t BYTES = N * sizeof(float);

extern "C" __global__ __aicore__ void ub_overflow_buf_pool_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBufPool<TPosition::VECCALC> pool;
    pipe.InitBufPool(pool, 2 * BYTES);
    TQue<QuePosition::VECIN, 1> inX, inY;
    TQue<QuePosition::VECOUT, 1> outZ;
    pool.InitBuffer(inX, 1, BYTES);
    pool.InitBuffer(inY, 1, BYTES);
    pool.InitBuffer(outZ, 1, BYTES);  // EXPECT: ub-overflow
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N);
    LocalTensor<float> xL = inX.AllocTensor<float>();
    DataCopy(xL, xGm, N);
    inX.EnQue(xL);
    xL = inX.DeQue<float>();
    DataCopy(yGm, xL, N);
    inX.FreeTensor(xL);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(BYTES);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(BYTES);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(ub_overflow_buf_pool_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
