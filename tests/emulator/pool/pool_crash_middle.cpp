// A crash in a middle block ends its worker process; the crash is that block's, and the blocks after it
// still run (on a new worker) and write their output (docs/emulator.md, "Speed"). 6 blocks, run with
// KWB_SIM_JOBS=1: block 2 reads a GlobalTensor it never set (a null GM address).
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCKS = 6;
constexpr uint32_t TILE = 64;

extern "C" __global__ __aicore__ void pool_crash_middle(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    const uint32_t b = GetBlockIdx();
    GlobalTensor<float> xGm, yGm, unset;
    xGm.SetGlobalBuffer((__gm__ float *)x + TILE * b, TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y + TILE * b, TILE);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, TILE * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    float bias = 1.0f;
    if (b == 2) bias = unset.GetValue(0);  // CRASH: block 2
    DataCopy(t, xGm, TILE);
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, bias, TILE);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, TILE);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(BLOCKS * TILE * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(BLOCKS * TILE * sizeof(float));
    float *xf = reinterpret_cast<float *>(x), *yf = reinterpret_cast<float *>(y);
    for (uint32_t i = 0; i < BLOCKS * TILE; i++) {
        xf[i] = static_cast<float>(i);
        yf[i] = -1.0f;
    }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(pool_crash_middle, BLOCKS, x, y);
    bool ok = true;
    for (uint32_t i = 0; i < BLOCKS * TILE; i++) {
        const float want = i / TILE == 2 ? -1.0f : static_cast<float>(i) + 1.0f;
        if (yf[i] != want) ok = false;
    }
    std::printf("%s\n", ok ? "OTHERS-RAN" : "OTHERS-MISSING");
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return 0;
}
