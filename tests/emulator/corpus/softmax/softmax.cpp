// SoftMax and SimpleSoftMax of the math library on row tiles, with the host helpers a tiling function
// calls: SoftMaxTilingFunc and GetSoftMaxMinTmpSize size the tiling and the sharedTmpBuffer of an
// [8, 64] float SoftMax that also returns the row max and sum (one 32-byte block per row); SimpleSoftMax
// reuses those to recompute the result; a [4, 128] half SoftMax with float max/sum uses the framework's
// reserved space. The tilings reach the kernel through GM, as a host would pass them. Checked against a
// host reference computed in double.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t M = 8, K = 64;     // float tile
constexpr uint32_t MH = 4, KH = 128;  // half tile
constexpr uint32_t N = M * K, NH = MH * KH;
constexpr uint32_t TILING_WORDS = sizeof(SoftMaxTiling) / sizeof(uint32_t);
// Output floats: softmax (N) | SimpleSoftMax (N) | row max blocks (M * 8) | row sum blocks (M * 8) |
// half softmax as floats (NH).
constexpr uint32_t OFF_SIMPLE = N, OFF_MAX = 2 * N, OFF_SUM = OFF_MAX + M * 8, OFF_HALF = OFF_SUM + M * 8;
constexpr uint32_t OUT_TOTAL = OFF_HALF + NH;

SoftMaxTiling readTiling(GM_ADDR src)
{
    GlobalTensor<uint32_t> words;
    words.SetGlobalBuffer((__gm__ uint32_t *)src, TILING_WORDS + 1);
    SoftMaxTiling t;
    uint32_t *dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < TILING_WORDS; i++) dst[i] = words.GetValue(i);
    return t;
}

__global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR xh, GM_ADDR tilingF, GM_ADDR tilingH, GM_ADDR out)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ, inQH;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf, stats, halfOut;
    const SoftMaxTiling tf = readTiling(tilingF);
    const SoftMaxTiling th = readTiling(tilingH);
    GlobalTensor<uint32_t> tmpSizeGm;
    tmpSizeGm.SetGlobalBuffer((__gm__ uint32_t *)tilingF + TILING_WORDS, 1);
    const uint32_t minTmp = tmpSizeGm.GetValue(0);
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(inQH, 1, NH * sizeof(half));
    pipe.InitBuffer(outQ, 1, OUT_TOTAL * sizeof(float));
    pipe.InitBuffer(tmpBuf, minTmp);
    pipe.InitBuffer(stats, 2 * MH * 8 * sizeof(float));
    pipe.InitBuffer(halfOut, NH * sizeof(half));
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
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    SoftMaxShapeInfo shape{M, K, M, K};
    SoftMax<float>(o, o[OFF_SUM], o[OFF_MAX], xLocal, tmp, tf, shape);
    SimpleSoftMax<float>(o[OFF_SIMPLE], o[OFF_SUM], o[OFF_MAX], xLocal, tmp, tf, shape);
    LocalTensor<float> hs = stats.Get<float>();
    LocalTensor<half> ho = halfOut.Get<half>();
    SoftMax<half>(ho, hs, hs[MH * 8], xhLocal, th);  // shape from the tiling
    Cast(o[OFF_HALF], ho, RoundMode::CAST_NONE, NH);
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
    uint8_t *tilingF = (uint8_t *)AscendC::GmAlloc(sizeof(SoftMaxTiling) + 32);
    uint8_t *tilingH = (uint8_t *)AscendC::GmAlloc(sizeof(SoftMaxTiling) + 32);
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(OUT_TOTAL * sizeof(float));
    float *xf = reinterpret_cast<float *>(x);
    half *xhh = reinterpret_cast<half *>(xh);
    for (uint32_t i = 0; i < N; i++) xf[i] = static_cast<float>((i * 37u) % 23u) * 0.25f - 2.0f;
    for (uint32_t i = 0; i < NH; i++) xhh[i] = half(static_cast<float>((i * 11u) % 17u) * 0.5f - 3.0f);

    // The host side of a tiling function: the minimum temporary space, then the tiling for it.
    const ge::Shape shapeF(std::vector<int64_t>{M, K});
    const ge::Shape shapeH(std::vector<int64_t>{MH, KH});
    const uint32_t minTmp = AscendC::GetSoftMaxMinTmpSize(shapeF, sizeof(float), false);
    const uint32_t maxTmp = AscendC::GetSoftMaxMaxTmpSize(shapeF, sizeof(float), false);
    SoftMaxTiling tf, th;
    AscendC::SoftMaxTilingFunc(shapeF, sizeof(float), minTmp, tf);
    AscendC::SoftMaxTilingFunc(shapeH, sizeof(float), 16 * 1024, th);
    tf.SaveToBuffer(tilingF, sizeof(SoftMaxTiling));
    th.SaveToBuffer(tilingH, sizeof(SoftMaxTiling));
    std::memcpy(tilingF + sizeof(SoftMaxTiling), &minTmp, sizeof(minTmp));

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(softmax_custom, 1, x, xh, tilingF, tilingH, out);

    const float *of = reinterpret_cast<const float *>(out);
    uint32_t bad = 0;
    auto expect = [&](uint32_t at, double want, double tol) {
        if (!(std::fabs(of[at] - want) <= tol * (1.0 + std::fabs(want)))) {
            if (bad < 10) std::printf("out[%u] = %g, expected %g\n", at, of[at], want);
            bad++;
        }
    };
    // The helpers: (32 / 4 + K + 64) floats at least, M times that at most; one pass holds one row.
    if (minTmp != (8 + K + 64) * 4 || maxTmp != M * minTmp || tf.splitM != 1 || tf.rangeM != M) {
        std::printf("helpers: min %u max %u splitM %u rangeM %u\n", minTmp, maxTmp, tf.splitM, tf.rangeM);
        bad++;
    }
    for (uint32_t r = 0; r < M; r++) {
        double mx = -INFINITY, sum = 0;
        for (uint32_t c = 0; c < K; c++) mx = std::fmax(mx, xf[r * K + c]);
        for (uint32_t c = 0; c < K; c++) sum += std::exp(xf[r * K + c] - mx);
        for (uint32_t c = 0; c < K; c++) {
            const double want = std::exp(xf[r * K + c] - mx) / sum;
            expect(r * K + c, want, 1e-5);
            expect(OFF_SIMPLE + r * K + c, want, 1e-5);
        }
        for (uint32_t e = 0; e < 8; e++) {
            expect(OFF_MAX + r * 8 + e, mx, 1e-6);
            expect(OFF_SUM + r * 8 + e, sum, 1e-5);
        }
    }
    for (uint32_t r = 0; r < MH; r++) {
        double mx = -INFINITY, sum = 0;
        for (uint32_t c = 0; c < KH; c++) mx = std::fmax(mx, static_cast<float>(xhh[r * KH + c]));
        for (uint32_t c = 0; c < KH; c++) sum += std::exp(static_cast<float>(xhh[r * KH + c]) - mx);
        for (uint32_t c = 0; c < KH; c++)
            expect(OFF_HALF + r * KH + c, std::exp(static_cast<float>(xhh[r * KH + c]) - mx) / sum, 2e-3);
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)xh);
    AscendC::GmFree((void *)tilingF);
    AscendC::GmFree((void *)tilingH);
    AscendC::GmFree((void *)out);
    std::printf("softmax: mismatches %u\n", bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
