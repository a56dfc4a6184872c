// Deliberately broken: static tensors from TBuf, DataCopy GM->UB (MTE2) then Add (V) with no MTE2->V flag. The
// compiler's auto-sync does not cover MTE2->V, so on hardware Add may read stale UB. The V->MTE3 side
// is synchronised correctly with a flag pair.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t TILE = 256;

extern "C" __global__ __aicore__ void missing_sync_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, zBuf;
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y, TILE);
    zGm.SetGlobalBuffer((__gm__ float *)z, TILE);
    pipe.InitBuffer(xBuf, TILE * sizeof(float));
    pipe.InitBuffer(yBuf, TILE * sizeof(float));
    pipe.InitBuffer(zBuf, TILE * sizeof(float));
    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<float> yLocal = yBuf.Get<float>();
    LocalTensor<float> zLocal = zBuf.Get<float>();

    DataCopy(xLocal, xGm, TILE);
    DataCopy(yLocal, yGm, TILE);
    Add(zLocal, xLocal, yLocal, TILE);  // EXPECT: missing-sync
    event_t eventIdVToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(eventIdVToMte3);
    WaitFlag<HardEvent::V_MTE3>(eventIdVToMte3);
    DataCopy(zGm, zLocal, TILE);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(TILE * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(missing_sync_kernel, 1, x, y, z);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    return 0;
}
