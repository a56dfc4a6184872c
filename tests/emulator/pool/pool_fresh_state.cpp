// Every block starts with fresh UB and fresh checker state, whichever process ran the block before
// (docs/emulator.md, "Speed"): 5 blocks, run with KWB_SIM_JOBS=1 so one worker runs them all in turn.
// Each block reads element 0 of a buffer nothing wrote (uninitialized-read, the poison 0xCD) and copies
// what it read to out[b], then writes elements 0..7 (which a stale UB would show the next block) and
// leaves an EnQue'd tensor behind (a queue leak at kernel end). Every block must report both. A static
// counter in the kernel counts the blocks its process ran; block b writes it to calls[b] and the host
// prints the counts: with one worker 1..5, with one process per block (KWB_SIM_BLOCKS_PER_PROCESS=1) all
// 1 (docs/emulator.md, "Speed", kernel statics).
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCKS = 5;

extern "C" __global__ __aicore__ void pool_fresh_state(GM_ADDR out, GM_ADDR calls)
{
    static int32_t ran = 0;
    ++ran;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    TQue<QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(buf, 64);
    pipe.InitBuffer(q, 1, 64);
    LocalTensor<int32_t> t = buf.Get<int32_t>();
    const int32_t seen = t.GetValue(0);  // reads UB nothing wrote in this block
    for (int32_t i = 0; i < 8; i++) t.SetValue(i, 1000 + i);
    WriteGmByPassDCache<int32_t>((__gm__ int32_t *)out + GetBlockIdx(), seen);
    WriteGmByPassDCache<int32_t>((__gm__ int32_t *)calls + GetBlockIdx(), ran);
    LocalTensor<int32_t> held = q.AllocTensor<int32_t>();
    q.EnQue(held);  // never dequeued: leaked at kernel end
}

int main()
{
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(BLOCKS * sizeof(int32_t));
    uint8_t *calls = (uint8_t *)AscendC::GmAlloc(BLOCKS * sizeof(int32_t));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(pool_fresh_state, BLOCKS, out, calls);
    bool ok = true;
    for (uint32_t b = 0; b < BLOCKS; b++)
        if (static_cast<uint32_t>(reinterpret_cast<int32_t *>(out)[b]) != 0xCDCDCDCDu) ok = false;
    std::printf("%s\ncalls:", ok ? "POISON" : "STALE");
    for (uint32_t b = 0; b < BLOCKS; b++) std::printf(" %d", reinterpret_cast<int32_t *>(calls)[b]);
    std::printf("\n");
    AscendC::GmFree((void *)out);
    AscendC::GmFree((void *)calls);
    return 0;
}
