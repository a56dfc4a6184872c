// Deliberately broken: the CCE-style flag pair set_flag/wait_flag(PIPE_MTE2, PIPE_V) is placed before the
// second DataCopy GM->UB instead of after it, so the vector operator form `z = x + y` may read y before
// MTE2 has written it. The emulator must report exactly one error of the category on the line marked
// EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t TILE = 256;

extern "C" __global__ __aicore__ void missing_sync_set_flag_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, zBuf;
    pipe.InitBuffer(xBuf, TILE * sizeof(float));
    pipe.InitBuffer(yBuf, TILE * sizeof(float));
    pipe.InitBuffer(zBuf, TILE * sizeof(float));
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y, TILE);
    zGm.SetGlobalBuffer((__gm__ float *)z, TILE);
    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<float> yLocal = yBuf.Get<float>();
    LocalTensor<float> zLocal = zBuf.Get<float>();
    DataCopy(xLocal, xGm, TILE);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    DataCopy(yLocal, yGm, TILE);  // after the flag: nothing orders it before the add
    zLocal = xLocal + yLocal;  // EXPECT: missing-sync
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    DataCopy(zGm, zLocal, TILE);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(missing_sync_set_flag_kernel, 1, x, y, z);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    return 0;
}
