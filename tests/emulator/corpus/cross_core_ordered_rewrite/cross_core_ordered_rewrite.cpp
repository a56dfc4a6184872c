// Writes of one GM slice by two cores, ordered by cross-core flags, are not a race (docs/emulator.md,
// "Ordering between cores"). Kernel 1 (plain AIV kernel, 4 blocks): every block writes y = x + 1 into its
// own slice, all blocks meet at CrossCoreSetFlag<0>/CrossCoreWaitFlag, then each block doubles its
// neighbour's slice in place. Kernel 2 (KERNEL_TYPE_MIX_AIC_1_2, 2 blocks): AIV 0 writes z = x + 1, both
// AIVs meet at CrossCoreSetFlag<1>/CrossCoreWaitFlag, then AIV 1 doubles the same bytes. Both outputs
// must be 2 * (x + 1), with no multicore-overlap reported.
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t SLICE = 256;  // floats per block (kernel 1) or per AI core (kernel 2)
constexpr uint32_t BLOCKS_PLAIN = 4;
constexpr uint32_t BLOCKS_MIX = 2;

class SliceWorker {
public:
    __aicore__ inline void Init(TPipe &pipe)
    {
        pipe.InitBuffer(inQueue, 1, SLICE * sizeof(float));
        pipe.InitBuffer(outQueue, 1, SLICE * sizeof(float));
    }
    // dst = src * scale + add
    __aicore__ inline void Run(GlobalTensor<float> &dst, GlobalTensor<float> &src, float scale, float add)
    {
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        DataCopy(in, src, SLICE);
        inQueue.EnQue(in);
        in = inQueue.DeQue<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Muls(out, in, scale, SLICE);
        Adds(out, out, add, SLICE);
        outQueue.EnQue(out);
        inQueue.FreeTensor(in);
        out = outQueue.DeQue<float>();
        DataCopy(dst, out, SLICE);
        outQueue.FreeTensor(out);
    }

private:
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
};

extern "C" __global__ __aicore__ void ordered_by_all_cores(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    SliceWorker w;
    w.Init(pipe);
    const uint32_t me = GetBlockIdx();
    const uint32_t next = (me + 1) % GetBlockNum();
    GlobalTensor<float> xMine, yMine, yNext;
    xMine.SetGlobalBuffer((__gm__ float *)x + SLICE * me, SLICE);
    yMine.SetGlobalBuffer((__gm__ float *)y + SLICE * me, SLICE);
    yNext.SetGlobalBuffer((__gm__ float *)y + SLICE * next, SLICE);
    w.Run(yMine, xMine, 1.0f, 1.0f);
    CrossCoreSetFlag<0, PIPE_MTE3>(3);  // every AIV has stored its slice ...
    CrossCoreWaitFlag(3);               // ... before any of them goes on
    w.Run(yNext, yNext, 2.0f, 0.0f);
}

extern "C" __global__ __aicore__ void ordered_by_block_aivs(GM_ADDR x, GM_ADDR z)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV {
        TPipe pipe;
        SliceWorker w;
        w.Init(pipe);
        const uint32_t core = GetBlockIdx() / GetSubBlockNum();
        GlobalTensor<float> xCore, zCore;
        xCore.SetGlobalBuffer((__gm__ float *)x + SLICE * core, SLICE);
        zCore.SetGlobalBuffer((__gm__ float *)z + SLICE * core, SLICE);
        if (GetSubBlockIdx() == 0) w.Run(zCore, xCore, 1.0f, 1.0f);
        CrossCoreSetFlag<1, PIPE_MTE3>(5);  // both AIVs of the core set ...
        CrossCoreWaitFlag(5);               // ... and both are released together
        if (GetSubBlockIdx() == 1) w.Run(zCore, zCore, 2.0f, 0.0f);
    }
}

namespace {
uint32_t checkDoubled(const char *name, const float *x, const float *out, uint32_t n)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const float want = 2.0f * (x[i] + 1.0f);
        if (out[i] != want && bad++ < 5) std::printf("%s[%u]: expected %g actual %g\n", name, i, want, out[i]);
    }
    return bad;
}
}  // namespace

int main()
{
    const uint32_t n = SLICE * BLOCKS_PLAIN;
    float *x = (float *)AscendC::GmAlloc(n * sizeof(float));
    float *y = (float *)AscendC::GmAlloc(n * sizeof(float));
    float *z = (float *)AscendC::GmAlloc(SLICE * BLOCKS_MIX * sizeof(float));
    for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 97) * 0.25f - 7.0f;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(ordered_by_all_cores, BLOCKS_PLAIN, (uint8_t *)x, (uint8_t *)y);
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(ordered_by_block_aivs, BLOCKS_MIX, (uint8_t *)x, (uint8_t *)z);
    const uint32_t bad = checkDoubled("y", x, y, n) + checkDoubled("z", x, z, SLICE * BLOCKS_MIX);
    std::printf("cross_core_ordered_rewrite: %u + %u elements, mismatches %u\n", n, SLICE * BLOCKS_MIX, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    return bad == 0 ? 0 : 1;
}
