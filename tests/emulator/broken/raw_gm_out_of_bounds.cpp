// Deliberately broken: a raw-pointer scalar loop writes one element past the end of the output's
// GmAlloc block (`<=` instead of `<`). Raw accesses are reported at the last emulated API call before
// them (here the barrier), with the faulting instruction's address in the message.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;

extern "C" __global__ __aicore__ void raw_gm_oob(GM_ADDR x, GM_ADDR z)
{
    auto *px = reinterpret_cast<__gm__ float *>(x);
    auto *pz = reinterpret_cast<__gm__ float *>(z);
    PipeBarrier<PIPE_ALL>();  // EXPECT: gm-out-of-bounds
    for (uint32_t i = 0; i <= N; ++i) {
        pz[i] = 2.0f * px[i < N ? i : N - 1];
    }
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(raw_gm_oob, 1, x, z);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)z);
    return 0;
}
