// Deliberately broken: WholeReduceSum over rows of 16 floats is given one repeat more than the source
// buffer has rows, so its last repeat reads the 64 bytes after the buffer (the mask-narrowed footprint
// still ends past it). The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t ROWS = 8;
constexpr uint32_t COLS = 16;

extern "C" __global__ __aicore__ void ub_out_of_bounds_whole_reduce_kernel(GM_ADDR x, GM_ADDR sums)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, sumBuf;
    pipe.InitBuffer(xBuf, ROWS * COLS * sizeof(float));
    pipe.InitBuffer(sumBuf, ROWS * COLS * sizeof(float));
    GlobalTensor<float> xGm, sumGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, ROWS * COLS);
    sumGm.SetGlobalBuffer((__gm__ float *)sums, ROWS * COLS);
    LocalTensor<float> xl = xBuf.Get<float>();
    LocalTensor<float> sl = sumBuf.Get<float>();
    DataCopy(xl, xGm, ROWS * COLS);
    Duplicate(sl, 0.0f, ROWS * COLS);  // the bytes the overrun reads are initialised: only the bound is wrong
    PipeBarrier<PIPE_ALL>();
    WholeReduceSum(sl, xl, COLS, ROWS + 1, 1, 1, COLS * sizeof(float) / 32);  // EXPECT: ub-out-of-bounds
    PipeBarrier<PIPE_ALL>();
    DataCopy(sumGm, sl, ROWS * COLS);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(ROWS * COLS * sizeof(float));
    uint8_t *sums = (uint8_t *)AscendC::GmAlloc(ROWS * COLS * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(ub_out_of_bounds_whole_reduce_kernel, 1, x, sums);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)sums);
    return 0;
}
