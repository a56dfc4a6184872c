// Deliberately broken: every block writes its own slice, then block 0 doubles the second half of block 1's
// slice in place, with nothing between the two phases (the CrossCoreSetFlag<0>/CrossCoreWaitFlag pair of
// corpus/cross_core_ordered_rewrite is missing). Block 1 may not have written its slice yet, so two
// blocks write the same bytes in no defined order: multicore-overlap at the range of block 0's write.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t SLICE = 256;
constexpr uint32_t HALF = SLICE / 2;

extern "C" __global__ __aicore__ void unordered_rewrite(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, SLICE * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    const uint32_t me = GetBlockIdx();
    const uint32_t next = (me + 1) % GetBlockNum();
    GlobalTensor<float> xMine, yMine, yNext;
    xMine.SetGlobalBuffer((__gm__ float *)x + SLICE * me, SLICE);
    yMine.SetGlobalBuffer((__gm__ float *)y + SLICE * me, SLICE);
    yNext.SetGlobalBuffer((__gm__ float *)y + SLICE * next + HALF, HALF);  // EXPECT: multicore-overlap
    DataCopy(t, xMine, SLICE);
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, 1.0f, SLICE);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yMine, t, SLICE);
    if (me != 0) return;
    PipeBarrier<PIPE_ALL>();
    DataCopy(t, yNext, HALF);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 2.0f, HALF);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yNext, t, HALF);
}

int main()
{
    constexpr uint32_t blockDim = 4;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(blockDim * SLICE * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(blockDim * SLICE * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(unordered_rewrite, blockDim, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
