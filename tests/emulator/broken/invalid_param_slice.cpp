// Deliberately broken: a DataCopy with SliceInfo whose source selects four segments of 3 blocks (elements 0,
// 24, 48 and 72 of a 96-float row) while the destination row holds two: the sides must select as many.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void slice_mismatch(GM_ADDR x)
{
    TPipe pipe;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 96);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 96 * sizeof(float));
    LocalTensor<float> tile = buf.Get<float>();
    SliceInfo srcSlice[] = {{0, 95, 0, 3, 96}};
    SliceInfo dstSlice[] = {{0, 47, 0, 3, 48}};
    DataCopy(tile, xGm, dstSlice, srcSlice, 1);  // EXPECT: invalid-param
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(96 * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(slice_mismatch, 1, x);
    AscendC::GmFree((void *)x);
    return 0;
}
