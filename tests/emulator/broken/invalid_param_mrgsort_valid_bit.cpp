// Deliberately broken: MrgSort's validBit is a bit mask of the queues that take part (0b11, 0b111 or
// 0b1111), not their count; this kernel passes 4 for its four queues of 32 pairs (bit 2 alone, which
// names no valid configuration). The emulator must report exactly one error of the category on the line
// marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 128;

extern "C" __global__ __aicore__ void invalid_param_mrgsort_valid_bit_kernel(GM_ADDR x, GM_ADDR idx, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ, inI;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> work;
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(inI, 1, N * sizeof(uint32_t));
    pipe.InitBuffer(outQ, 1, N * 8);
    pipe.InitBuffer(work, N * 8);
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<uint32_t> iGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    iGm.SetGlobalBuffer((__gm__ uint32_t *)idx, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N * 2);
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    LocalTensor<uint32_t> iLocal = inI.AllocTensor<uint32_t>();
    DataCopy(xLocal, xGm, N);
    DataCopy(iLocal, iGm, N);
    inQ.EnQue(xLocal);
    inI.EnQue(iLocal);
    xLocal = inQ.DeQue<float>();
    iLocal = inI.DeQue<uint32_t>();
    LocalTensor<float> groups = work.Get<float>();
    Sort32<float>(groups, xLocal, iLocal, N / 32);
    PipeBarrier<PIPE_V>();
    LocalTensor<float> yLocal = outQ.AllocTensor<float>();
    Duplicate(yLocal, 0.0f, N * 2);
    PipeBarrier<PIPE_V>();
    MrgSort4Info params;
    for (int q = 0; q < 4; q++) params.elementLengths[q] = 32;
    params.ifExhaustedSuspension = false;
    params.validBit = 4;
    params.repeatTimes = 1;
    MrgSortSrcList<float> list(groups[0], groups[64], groups[128], groups[192]);
    MrgSort<float>(yLocal, list, params);  // EXPECT: invalid-param
    outQ.EnQue(yLocal);
    inQ.FreeTensor(xLocal);
    inI.FreeTensor(iLocal);
    yLocal = outQ.DeQue<float>();
    DataCopy(yGm, yLocal, N * 2);
    outQ.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *idx = (uint8_t *)AscendC::GmAlloc(N * sizeof(uint32_t));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(N * 8);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(invalid_param_mrgsort_valid_bit_kernel, 1, x, idx, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)idx);
    AscendC::GmFree((void *)y);
    return 0;
}
