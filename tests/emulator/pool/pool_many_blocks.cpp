// More blocks than worker processes (docs/emulator.md, "Speed"): 9 blocks, run with KWB_SIM_JOBS=2 (and
// =1), each adds its block index to its slice of x, then a SyncAll, then each block copies the slice of
// the next block's result into a second output. Blocks asleep in the SyncAll must let the others start
// although every worker is taken.
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCKS = 9;
constexpr uint32_t TILE = 256;  // floats per block

extern "C" __global__ __aicore__ void pool_many_blocks(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    const uint32_t b = GetBlockIdx();
    GlobalTensor<float> xGm, yGm, yAll, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + TILE * b, TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y + TILE * b, TILE);
    yAll.SetGlobalBuffer((__gm__ float *)y, TILE * BLOCKS);
    zGm.SetGlobalBuffer((__gm__ float *)z + TILE * b, TILE);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, TILE * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, TILE);
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, static_cast<float>(b), TILE);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, TILE);
    SyncAll();
    DataCopy(t, yAll[((b + 1) % BLOCKS) * TILE], TILE);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, t, TILE);
}

int main()
{
    const size_t bytes = BLOCKS * TILE * sizeof(float);
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(bytes);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(bytes);
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(bytes);
    float *xf = reinterpret_cast<float *>(x), *yf = reinterpret_cast<float *>(y), *zf = reinterpret_cast<float *>(z);
    for (uint32_t i = 0; i < BLOCKS * TILE; i++) xf[i] = static_cast<float>(i % 97) * 0.5f;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(pool_many_blocks, BLOCKS, x, y, z);
    bool ok = true;
    for (uint32_t i = 0; i < BLOCKS * TILE; i++) {
        const uint32_t b = i / TILE;
        const float want = static_cast<float>(i % 97) * 0.5f + static_cast<float>(b);
        if (yf[i] != want) ok = false;
        const uint32_t j = ((b + 1) % BLOCKS) * TILE + i % TILE;
        if (zf[i] != static_cast<float>(j % 97) * 0.5f + static_cast<float>(j / TILE)) ok = false;
    }
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    return ok ? 0 : 2;
}
