// Cross-block exchange through GM with SyncAll (docs/emulator.md, "SyncAll"): 4 blocks, more than the
// emulator runs at once on a small machine, so blocks asleep in a SyncAll must let the others start.
// Phase 0: block 0 zeroes the whole output (a plain write over every block's slice); every block
// doubles its slice of x into a shared GM workspace. SyncAll (hardware form). Phase 1: every block sums
// all blocks' workspace tiles and writes the sum to its own slice of the output (the bytes block 0
// zeroed in phase 0: ordered by the barrier, not a race), and publishes a flag with WriteGmByPassDCache.
// SyncAll (software form, with its GM and UB workspaces). Phase 2: block 0 reads every flag with
// ReadGmByPassDCache. The host compares everything with its own reference and prints PASS or FAIL.
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCKS = 4;
constexpr uint32_t TILE = 256;  // floats per block

extern "C" __global__ __aicore__ void sync_all_workspace(GM_ADDR x, GM_ADDR out, GM_ADDR work, GM_ADDR syncWs,
                                                         GM_ADDR flags, GM_ADDR total)
{
    TPipe pipe;
    SetSysWorkspace(work);
    const uint32_t b = GetBlockIdx();
    GlobalTensor<float> xGm, outGm, allOutGm, workGm;
    GlobalTensor<int32_t> syncGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + TILE * b, TILE);
    outGm.SetGlobalBuffer((__gm__ float *)out + TILE * b, TILE);
    allOutGm.SetGlobalBuffer((__gm__ float *)out, TILE * BLOCKS);
    workGm.SetGlobalBuffer((__gm__ float *)GetSysWorkSpacePtr(), TILE * BLOCKS);
    syncGm.SetGlobalBuffer((__gm__ int32_t *)syncWs, BLOCKS * 8);

    TBuf<TPosition::VECCALC> inBuf, accBuf, syncBuf;
    pipe.InitBuffer(inBuf, TILE * sizeof(float));
    pipe.InitBuffer(accBuf, TILE * sizeof(float));
    pipe.InitBuffer(syncBuf, BLOCKS * 32);
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> acc = accBuf.Get<float>();
    LocalTensor<int32_t> ubWs = syncBuf.Get<int32_t>();

    if (b == 0) {
        Duplicate(acc, 0.0f, TILE);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t i = 0; i < BLOCKS; i++) DataCopy(allOutGm[i * TILE], acc, TILE);
    }
    DataCopy(in, xGm, TILE);
    PipeBarrier<PIPE_ALL>();
    Muls(in, in, 2.0f, TILE);
    PipeBarrier<PIPE_ALL>();
    DataCopy(workGm[b * TILE], in, TILE);
    SyncAll();

    Duplicate(acc, 0.0f, TILE);
    for (uint32_t i = 0; i < BLOCKS; i++) {
        PipeBarrier<PIPE_ALL>();
        DataCopy(in, workGm[i * TILE], TILE);
        PipeBarrier<PIPE_ALL>();
        Add(acc, acc, in, TILE);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, acc, TILE);
    WriteGmByPassDCache<int32_t>((__gm__ int32_t *)flags + b, static_cast<int32_t>(b + 1));
    SyncAll(syncGm, ubWs);

    if (b == 0) {
        int32_t sum = 0;
        for (uint32_t i = 0; i < BLOCKS; i++) sum += ReadGmByPassDCache<int32_t>((__gm__ int32_t *)flags + i);
        WriteGmByPassDCache<int32_t>((__gm__ int32_t *)total, sum);
    }
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(BLOCKS * TILE * sizeof(float));
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(BLOCKS * TILE * sizeof(float));
    uint8_t *work = (uint8_t *)AscendC::GmAlloc(BLOCKS * TILE * sizeof(float));
    uint8_t *syncWs = (uint8_t *)AscendC::GmAlloc(BLOCKS * 32);
    uint8_t *flags = (uint8_t *)AscendC::GmAlloc(BLOCKS * sizeof(int32_t));
    uint8_t *total = (uint8_t *)AscendC::GmAlloc(32);
    float *xf = reinterpret_cast<float *>(x), *outF = reinterpret_cast<float *>(out);
    for (uint32_t i = 0; i < BLOCKS * TILE; i++) {
        xf[i] = static_cast<float>(static_cast<int32_t>((i * 29u) % 23u) - 11);
        outF[i] = 12345.0f;  // block 0 zeroes it, then every block overwrites its slice
    }
    for (uint32_t i = 0; i < BLOCKS * 8; i++) reinterpret_cast<int32_t *>(syncWs)[i] = 0;
    for (uint32_t i = 0; i < BLOCKS; i++) reinterpret_cast<int32_t *>(flags)[i] = 0;
    reinterpret_cast<int32_t *>(total)[0] = 0;

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(sync_all_workspace, BLOCKS, x, out, work, syncWs, flags, total);

    int bad = 0;
    for (uint32_t b = 0; b < BLOCKS; b++) {
        for (uint32_t j = 0; j < TILE; j++) {
            float want = 0.0f;
            for (uint32_t i = 0; i < BLOCKS; i++) want += 2.0f * xf[i * TILE + j];
            if (outF[b * TILE + j] != want) {
                if (bad < 8) std::printf("out[%u]: expected %g actual %g\n", b * TILE + j, want, outF[b * TILE + j]);
                bad++;
            }
        }
    }
    const int32_t flagSum = reinterpret_cast<int32_t *>(total)[0];
    if (flagSum != 10) {
        std::printf("flag total: expected 10 actual %d\n", flagSum);
        bad++;
    }
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    for (uint8_t *p : {x, out, work, syncWs, flags, total}) AscendC::GmFree((void *)p);
    return bad == 0 ? 0 : 1;
}
