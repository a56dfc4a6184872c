// Deliberately broken: the kernel asserts a block range (ascendc_assert, the devkit's kernel assertion with a
// printf-style message) that block 1 of the launch breaks; the block stops there with the formatted message.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void assert_range(GM_ADDR x)
{
    const uint32_t blocksPlanned = 1;
    ascendc_assert(GetBlockIdx() < blocksPlanned, "BlockIdx %u is out of valid range.\n", static_cast<uint32_t>(GetBlockIdx()));  // EXPECT: invalid-param block=1
    ascendc_assert(blocksPlanned % 1 == 0);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(64);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(assert_range, 2, x);
    AscendC::GmFree((void *)x);
    return 0;
}
