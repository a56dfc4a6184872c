// Deliberately broken: block 0 accumulates its partial into the shared output with SetAtomicAdd, but
// block 1 forgot the atomic mode and overwrites the upper half of the same range with a plain copy.
// Atomic accumulations from several blocks may share GM bytes; a plain write into them may not.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCK_LENGTH = 512;

extern "C" __global__ __aicore__ void multicore_overlap_atomic_mixed_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y, BLOCK_LENGTH);
    pipe.InitBuffer(inQueue, 1, BLOCK_LENGTH * sizeof(float));

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, BLOCK_LENGTH);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    PipeBarrier<PIPE_ALL>();
    if (GetBlockIdx() == 0) {
        SetAtomicAdd<float>();
        DataCopy(yGm, xLocal, BLOCK_LENGTH);
        SetAtomicNone();
    } else {
        DataCopy(yGm[BLOCK_LENGTH / 2], xLocal, BLOCK_LENGTH / 2);  // EXPECT: multicore-overlap block=1
    }
    inQueue.FreeTensor(xLocal);
}

int main()
{
    constexpr uint32_t blockDim = 2;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(blockDim * BLOCK_LENGTH * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(BLOCK_LENGTH * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(multicore_overlap_atomic_mixed_kernel, blockDim, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
