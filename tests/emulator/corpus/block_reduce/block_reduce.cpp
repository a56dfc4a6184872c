// Row statistics of an 8 x 64 float tile with the per-block and per-repeat reductions: BlockReduceSum /
// Max / Min (one result per 32-byte block), PairReduceSum (adjacent pairs) and RepeatReduceSum (one sum
// per 256-byte repeat), in the argument order of the API reference (repeatTime before the mask), with
// a half-precision RepeatReduceSum and a bit-mask BlockReduceSum. Checked against a host reference.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t ROWS = 8;
constexpr uint32_t COLS = 64;  // one 256-byte repeat of floats per row
constexpr uint32_t N = ROWS * COLS;
// Output layout (floats): block sums | block max | block min | pair sums | row sums | masked sums |
// half row sums (as floats).
constexpr uint32_t OUT_BLOCK = ROWS * 8;
constexpr uint32_t OUT_PAIR = ROWS * 32;
constexpr uint32_t OUT_TOTAL = 3 * OUT_BLOCK + OUT_PAIR + ROWS + OUT_BLOCK + ROWS;

__global__ __aicore__ void block_reduce_custom(GM_ADDR x, GM_ADDR xh, GM_ADDR out)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue, inQueueH;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> halfSums;
    pipe.InitBuffer(inQueue, 1, N * sizeof(float));
    pipe.InitBuffer(inQueueH, 1, N * sizeof(half));
    pipe.InitBuffer(outQueue, 1, OUT_TOTAL * sizeof(float));
    pipe.InitBuffer(halfSums, 32);
    GlobalTensor<float> xGm, outGm;
    GlobalTensor<half> xhGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    xhGm.SetGlobalBuffer((__gm__ half *)xh, N);
    outGm.SetGlobalBuffer((__gm__ float *)out, OUT_TOTAL);

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    LocalTensor<half> xhLocal = inQueueH.AllocTensor<half>();
    DataCopy(xLocal, xGm, N);
    DataCopy(xhLocal, xhGm, N);
    inQueue.EnQue(xLocal);
    inQueueH.EnQue(xhLocal);
    xLocal = inQueue.DeQue<float>();
    xhLocal = inQueueH.DeQue<half>();
    LocalTensor<float> o = outQueue.AllocTensor<float>();
    // One repeat per row: 8 blocks of 8 floats each.
    BlockReduceSum<float>(o, xLocal, ROWS, 64, 1, 1, 8);
    BlockReduceMax<float>(o[OUT_BLOCK], xLocal, ROWS, 64, 1, 1, 8);
    BlockReduceMin<float>(o[2 * OUT_BLOCK], xLocal, ROWS, 64, 1, 1, 8);
    PairReduceSum<float>(o[3 * OUT_BLOCK], xLocal, ROWS, 64, 1, 1, 8);
    RepeatReduceSum<float>(o[3 * OUT_BLOCK + OUT_PAIR], xLocal, ROWS, 64, 0, 1, 1, 8);
    // Bit mask: only the even lanes of every repeat take part.
    uint64_t evenLanes[2] = {0x5555555555555555ull, 0};
    BlockReduceSum<float>(o[3 * OUT_BLOCK + OUT_PAIR + ROWS], xLocal, ROWS, evenLanes, 1, 1, 8);
    // Half: a row of 64 halves is half a repeat (mask 64), rows 128 bytes = 4 blocks apart.
    LocalTensor<half> hs = halfSums.Get<half>();
    RepeatReduceSum<half>(hs, xhLocal, ROWS, 64, 0, 1, 1, 4);
    Cast(o[4 * OUT_BLOCK + OUT_PAIR + ROWS], hs, RoundMode::CAST_NONE, ROWS);
    outQueue.EnQue(o);
    inQueue.FreeTensor(xLocal);
    inQueueH.FreeTensor(xhLocal);
    o = outQueue.DeQue<float>();
    DataCopy(outGm, o, OUT_TOTAL);
    outQueue.FreeTensor(o);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *xh = (uint8_t *)AscendC::GmAlloc(N * sizeof(half));
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(OUT_TOTAL * sizeof(float));
    float *xf = reinterpret_cast<float *>(x);
    half *xhf = reinterpret_cast<half *>(xh);
    float *of = reinterpret_cast<float *>(out);
    for (uint32_t i = 0; i < N; i++) {
        xf[i] = static_cast<float>((i * 37u) % 101u) * 0.125f - 6.0f;  // exact in half too
        xhf[i] = half(xf[i]);
    }
    for (uint32_t i = 0; i < OUT_TOTAL; i++) of[i] = NAN;

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(block_reduce_custom, 1, x, xh, out);

    float ref[OUT_TOTAL];
    for (uint32_t r = 0; r < ROWS; r++) {
        float rowSum = 0.0f;
        for (uint32_t b = 0; b < 8; b++) {
            float s = 0.0f, mx = -INFINITY, mn = INFINITY, even = 0.0f;
            for (uint32_t e = 0; e < 8; e++) {
                const float v = xf[r * COLS + b * 8 + e];
                s += v;
                mx = std::fmax(mx, v);
                mn = std::fmin(mn, v);
                if (e % 2 == 0) even += v;
            }
            ref[r * 8 + b] = s;
            ref[OUT_BLOCK + r * 8 + b] = mx;
            ref[2 * OUT_BLOCK + r * 8 + b] = mn;
            ref[3 * OUT_BLOCK + OUT_PAIR + ROWS + r * 8 + b] = even;
            rowSum += s;
        }
        for (uint32_t p = 0; p < 32; p++)
            ref[3 * OUT_BLOCK + r * 32 + p] = xf[r * COLS + 2 * p] + xf[r * COLS + 2 * p + 1];
        ref[3 * OUT_BLOCK + OUT_PAIR + r] = rowSum;
        ref[4 * OUT_BLOCK + OUT_PAIR + ROWS + r] = rowSum;  // multiples of 1/8 below 2048: exact in half
    }
    uint32_t bad = 0;
    for (uint32_t i = 0; i < OUT_TOTAL; i++) {
        if (!(std::fabs(of[i] - ref[i]) <= 1e-4f)) {
            if (bad < 10) std::printf("out[%u] = %g, expected %g\n", i, of[i], ref[i]);
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)xh);
    AscendC::GmFree((void *)out);
    std::printf("block_reduce: %u results, mismatches %u\n", OUT_TOTAL, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
