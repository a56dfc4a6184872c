// Deliberately broken: every block writes its result through a raw pointer to the start of the output
// (the per-block offset is forgotten), so block 0 and block 1 write the same GM bytes.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t PER_BLOCK = 128;

extern "C" __global__ __aicore__ void raw_overlap(GM_ADDR x, GM_ADDR z)
{
    auto *px = reinterpret_cast<__gm__ int32_t *>(x) + GetBlockIdx() * PER_BLOCK;
    auto *pz = reinterpret_cast<__gm__ int32_t *>(z);
    PipeBarrier<PIPE_ALL>();  // EXPECT: multicore-overlap
    for (uint32_t i = 0; i < PER_BLOCK; ++i) {
        pz[i] = px[i] + 1;
    }
}

int main()
{
    constexpr uint32_t blockDim = 2;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(blockDim * PER_BLOCK * sizeof(int32_t));
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(blockDim * PER_BLOCK * sizeof(int32_t));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(raw_overlap, blockDim, x, z);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)z);
    return 0;
}
