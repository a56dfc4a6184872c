// Deliberately broken: MulAddDst (dst = src0 * src1 + dst) accumulates 256 floats into the second half
// of a 256-float accumulator tile (starting at element 128), so it runs 128 elements past its end. The emulator must report
// exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 512;

extern "C" __global__ __aicore__ void ub_out_of_bounds_fused_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inA, inB;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inA, 1, N * sizeof(float));
    pipe.InitBuffer(inB, 1, N * sizeof(float));
    pipe.InitBuffer(outQ, 1, N / 2 * sizeof(float));
    GlobalTensor<float> aGm, bGm, yGm;
    aGm.SetGlobalBuffer((__gm__ float *)a, N);
    bGm.SetGlobalBuffer((__gm__ float *)b, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N / 2);
    LocalTensor<float> aLocal = inA.AllocTensor<float>();
    LocalTensor<float> bLocal = inB.AllocTensor<float>();
    DataCopy(aLocal, aGm, N);
    DataCopy(bLocal, bGm, N);
    inA.EnQue(aLocal);
    inB.EnQue(bLocal);
    aLocal = inA.DeQue<float>();
    bLocal = inB.DeQue<float>();
    LocalTensor<float> acc = outQ.AllocTensor<float>();
    Duplicate(acc, 0.0f, N / 2);
    MulAddDst(acc[N / 4], aLocal, bLocal, N / 2);  // EXPECT: ub-out-of-bounds
    outQ.EnQue(acc);
    inA.FreeTensor(aLocal);
    inB.FreeTensor(bLocal);
    acc = outQ.DeQue<float>();
    DataCopy(yGm, acc, N / 2);
    outQ.FreeTensor(acc);
}

int main()
{
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(N / 2 * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(ub_out_of_bounds_fused_kernel, 1, a, b, y);
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)y);
    return 0;
}
