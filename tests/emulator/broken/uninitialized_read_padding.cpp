// Deliberately broken: a row of 20 floats is copied into UB with DataCopyPad (isPad false), which leaves
// lanes 20..63 of the 64-float buffer unwritten, and ReduceSum then sums all 64 lanes. On hardware those
// lanes hold stale data; the emulator poisons fresh UB and must report exactly one error of the category
// on the line marked EXPECT (the reduction that reads the padding), naming the DataCopyPad.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t COLS = 20;
constexpr uint32_t COLS_ALIGNED = 64;

extern "C" __global__ __aicore__ void uninitialized_read_padding_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TBuf<TPosition::VECCALC> workBuf, sumBuf;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, COLS);
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    pipe.InitBuffer(inQueue, 1, COLS_ALIGNED * sizeof(float));
    pipe.InitBuffer(workBuf, COLS_ALIGNED * sizeof(float));
    pipe.InitBuffer(sumBuf, 8 * sizeof(float));

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopyPad(xLocal, xGm, DataCopyExtParams{1, COLS * sizeof(float), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    inQueue.EnQue(xLocal);
    LocalTensor<float> xIn = inQueue.DeQue<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> sum = sumBuf.Get<float>();
    Duplicate(sum, 0.0f, 8);
    ReduceSum(sum, xIn, work, COLS_ALIGNED);  // EXPECT: uninitialized-read
    inQueue.FreeTensor(xIn);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(yGm, sum, 8);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(COLS * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(8 * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(uninitialized_read_padding_kernel, 1, x, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
