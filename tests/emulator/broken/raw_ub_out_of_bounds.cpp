// Deliberately broken: a raw UB pointer from LocalTensor::GetPhyAddr() fills one element more than the
// TBuf holds.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 64;

extern "C" __global__ __aicore__ void raw_ub_oob(GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer((__gm__ float *)z, N);
    auto *p = reinterpret_cast<__ubuf__ float *>(t.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();  // EXPECT: ub-out-of-bounds
    for (uint32_t i = 0; i <= N; ++i) {
        p[i] = static_cast<float>(i);
    }
    DataCopy(zGm, t, N);
}

int main()
{
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(raw_ub_oob, 1, z);
    AscendC::GmFree((void *)z);
    return 0;
}
