// The reduceType-templated reductions: ReduceRepeat<SUM> (one sum per 64-float row), ReduceRepeat<MAX>
// with the default [value, index] order, ReduceRepeat<MIN> on half with ORDER_ONLY_VALUE, and the
// reduce sample's two-step sum of a length that is not a multiple of a repeat: ReduceDataBlock<SUM> in
// counter mode (one sum per 32-byte block) followed by ReduceRepeat<SUM> over the block sums. Checked
// against a host reference.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t ROWS = 8;
constexpr uint32_t COLS = 64;   // one repeat of floats
constexpr uint32_t N = ROWS * COLS;
constexpr uint32_t HROWS = 4;
constexpr uint32_t HCOLS = 128;  // one repeat of halves
constexpr uint32_t NH = HROWS * HCOLS;
constexpr uint32_t TAIL = 200;   // elements of the two-step sum (25 blocks of 8 floats)
// Output floats: row sums (8) | [max, index] pairs (16) | two-step total (1, padded to 8) | half row
// minima as floats (4).
constexpr uint32_t OFF_MAX = ROWS;
constexpr uint32_t OFF_TOTAL = OFF_MAX + 2 * ROWS;
constexpr uint32_t OFF_HMIN = OFF_TOTAL + 8;
constexpr uint32_t OUT_TOTAL = OFF_HMIN + 8;

__global__ __aicore__ void reduce_repeat_custom(GM_ADDR x, GM_ADDR xh, GM_ADDR out)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ, inQH;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> blockSums, halfMins;
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(inQH, 1, NH * sizeof(half));
    pipe.InitBuffer(outQ, 1, OUT_TOTAL * sizeof(float));
    pipe.InitBuffer(blockSums, 64 * sizeof(float));  // ReduceRepeat reads whole repeats
    pipe.InitBuffer(halfMins, 16 * sizeof(half));
    GlobalTensor<float> xGm, outGm;
    GlobalTensor<half> xhGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    xhGm.SetGlobalBuffer((__gm__ half *)xh, NH);
    outGm.SetGlobalBuffer((__gm__ float *)out, OUT_TOTAL);

    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    LocalTensor<half> xhLocal = inQH.AllocTensor<half>();
    DataCopy(xLocal, xGm, N);
    DataCopy(xhLocal, xhGm, NH);
    inQ.EnQue(xLocal);
    inQH.EnQue(xhLocal);
    xLocal = inQ.DeQue<float>();
    xhLocal = inQH.DeQue<half>();
    LocalTensor<float> o = outQ.AllocTensor<float>();
    Duplicate(o, 0.0f, OUT_TOTAL);
    ReduceRepeat<ReduceType::SUM, float>(o, xLocal, COLS, ROWS, 1, 1, 8);
    ReduceRepeat<ReduceType::MAX, float>(o[OFF_MAX], xLocal, COLS, ROWS, 1, 1, 8);
    LocalTensor<half> hm = halfMins.Get<half>();
    ReduceRepeat<ReduceType::MIN, half>(hm, xhLocal, HCOLS, HROWS, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
    Cast(o[OFF_HMIN], hm, RoundMode::CAST_NONE, HROWS);
    // The reduce sample's form: the counter gives the elements, the mask argument is a placeholder.
    LocalTensor<float> bs = blockSums.Get<float>();
    SetMaskCount();
    SetVectorMask<float>(0, TAIL);
    ReduceDataBlock<ReduceType::SUM, float, float, false>(bs, xLocal, MASK_PLACEHOLDER, 1, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(0, (TAIL + 7) / 8);
    ReduceRepeat<ReduceType::SUM, float, float, false>(o[OFF_TOTAL], bs, MASK_PLACEHOLDER, 1, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    SetMaskNorm();
    ResetMask();
    outQ.EnQue(o);
    inQ.FreeTensor(xLocal);
    inQH.FreeTensor(xhLocal);
    o = outQ.DeQue<float>();
    DataCopy(outGm, o, OUT_TOTAL);
    outQ.FreeTensor(o);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *xh = (uint8_t *)AscendC::GmAlloc(NH * sizeof(half));
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(OUT_TOTAL * sizeof(float));
    float *xf = reinterpret_cast<float *>(x);
    half *xhf = reinterpret_cast<half *>(xh);
    for (uint32_t i = 0; i < N; i++) xf[i] = static_cast<float>((i * 53u) % 97u) * 0.25f - 10.0f;
    for (uint32_t i = 0; i < NH; i++) xhf[i] = half(static_cast<float>((i * 29u) % 61u) * 0.5f - 12.0f);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(reduce_repeat_custom, 1, x, xh, out);

    const float *of = reinterpret_cast<const float *>(out);
    uint32_t bad = 0;
    auto expect = [&](uint32_t at, double want) {
        if (!(std::fabs(of[at] - want) <= 1e-4 * (1.0 + std::fabs(want)))) {
            if (bad < 10) std::printf("out[%u] = %g, expected %g\n", at, of[at], want);
            bad++;
        }
    };
    double total = 0;
    for (uint32_t i = 0; i < TAIL; i++) total += xf[i];
    for (uint32_t r = 0; r < ROWS; r++) {
        double s = 0;
        float mx = -INFINITY;
        uint32_t at = 0;
        for (uint32_t c = 0; c < COLS; c++) {
            const float v = xf[r * COLS + c];
            s += v;
            if (v > mx) {  // the first (lowest) index of equal maxima
                mx = v;
                at = c;
            }
        }
        expect(r, s);
        expect(OFF_MAX + 2 * r, mx);
        uint32_t idx = 0;
        std::memcpy(&idx, &of[OFF_MAX + 2 * r + 1], 4);
        if (idx != at) {
            if (bad < 10) std::printf("max index of row %u = %u, expected %u\n", r, idx, at);
            bad++;
        }
    }
    expect(OFF_TOTAL, total);
    for (uint32_t r = 0; r < HROWS; r++) {
        float mn = INFINITY;
        for (uint32_t c = 0; c < HCOLS; c++) mn = std::fmin(mn, static_cast<float>(xhf[r * HCOLS + c]));
        expect(OFF_HMIN + r, mn);
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)xh);
    AscendC::GmFree((void *)out);
    std::printf("reduce_repeat: mismatches %u\n", bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
