// RmsNorm of the math library with its host helpers: GetRmsNormMaxMinTmpSize sizes the sharedTmpBuffer
// and GetRmsNormTilingInfo the tiling of a [2, 4, 64] float RmsNorm whose original H is 60 (the padded
// columns are zero, the mean divides by 60); a [1, 8, 128] half RmsNorm uses the framework's reserved
// space. The tilings reach the kernel through GM. Checked against a host reference computed in double.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t B = 2, S = 4, H = 64, ORI_H = 60;  // float
constexpr uint32_t SH = 8, HH = 128;                  // half: B = 1
constexpr uint32_t N = B * S * H, NH = SH * HH;
constexpr uint32_t TILING_WORDS = sizeof(RmsNormTiling) / sizeof(uint32_t);
constexpr float EPS = 1e-5f;

RmsNormTiling readTiling(GM_ADDR src, uint32_t* extra)
{
    GlobalTensor<uint32_t> words;
    words.SetGlobalBuffer((__gm__ uint32_t *)src, TILING_WORDS + 1);
    RmsNormTiling t;
    uint32_t *dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < TILING_WORDS; i++) dst[i] = words.GetValue(i);
    *extra = words.GetValue(TILING_WORDS);
    return t;
}

__global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR xh, GM_ADDR gammah, GM_ADDR tilingF,
                                           GM_ADDR tilingH, GM_ADDR out, GM_ADDR outh)
{
    uint32_t minTmp = 0, unused = 0;
    const RmsNormTiling tf = readTiling(tilingF, &minTmp);
    const RmsNormTiling th = readTiling(tilingH, &unused);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ, inQG, inQH, inQGH;
    TQue<QuePosition::VECOUT, 1> outQ, outQH;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(inQG, 1, H * sizeof(float));
    pipe.InitBuffer(inQH, 1, NH * sizeof(half));
    pipe.InitBuffer(inQGH, 1, HH * sizeof(half));
    pipe.InitBuffer(outQ, 1, N * sizeof(float));
    pipe.InitBuffer(outQH, 1, NH * sizeof(half));
    pipe.InitBuffer(tmpBuf, minTmp);
    GlobalTensor<float> xGm, gGm, outGm;
    GlobalTensor<half> xhGm, ghGm, outhGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    gGm.SetGlobalBuffer((__gm__ float *)gamma, H);
    xhGm.SetGlobalBuffer((__gm__ half *)xh, NH);
    ghGm.SetGlobalBuffer((__gm__ half *)gammah, HH);
    outGm.SetGlobalBuffer((__gm__ float *)out, N);
    outhGm.SetGlobalBuffer((__gm__ half *)outh, NH);

    LocalTensor<float> xl = inQ.AllocTensor<float>();
    LocalTensor<float> gl = inQG.AllocTensor<float>();
    LocalTensor<half> xhl = inQH.AllocTensor<half>();
    LocalTensor<half> ghl = inQGH.AllocTensor<half>();
    DataCopy(xl, xGm, N);
    DataCopy(gl, gGm, H);
    DataCopy(xhl, xhGm, NH);
    DataCopy(ghl, ghGm, HH);
    inQ.EnQue(xl);
    inQG.EnQue(gl);
    inQH.EnQue(xhl);
    inQGH.EnQue(ghl);
    xl = inQ.DeQue<float>();
    gl = inQG.DeQue<float>();
    xhl = inQH.DeQue<half>();
    ghl = inQGH.DeQue<half>();
    LocalTensor<float> o = outQ.AllocTensor<float>();
    LocalTensor<half> oh = outQH.AllocTensor<half>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    RmsNorm<float>(o, xl, gl, tmp, EPS, tf);
    RmsNorm<half>(oh, xhl, ghl, half(EPS), th);
    outQ.EnQue(o);
    outQH.EnQue(oh);
    inQ.FreeTensor(xl);
    inQG.FreeTensor(gl);
    inQH.FreeTensor(xhl);
    inQGH.FreeTensor(ghl);
    o = outQ.DeQue<float>();
    oh = outQH.DeQue<half>();
    DataCopy(outGm, o, N);
    DataCopy(outhGm, oh, NH);
    outQ.FreeTensor(o);
    outQH.FreeTensor(oh);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *gamma = (uint8_t *)AscendC::GmAlloc(H * sizeof(float));
    uint8_t *xh = (uint8_t *)AscendC::GmAlloc(NH * sizeof(half));
    uint8_t *gammah = (uint8_t *)AscendC::GmAlloc(HH * sizeof(half));
    uint8_t *tilingF = (uint8_t *)AscendC::GmAlloc(sizeof(RmsNormTiling) + 32);
    uint8_t *tilingH = (uint8_t *)AscendC::GmAlloc(sizeof(RmsNormTiling) + 32);
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *outh = (uint8_t *)AscendC::GmAlloc(NH * sizeof(half));
    float *xf = reinterpret_cast<float *>(x);
    float *gf = reinterpret_cast<float *>(gamma);
    half *xhh = reinterpret_cast<half *>(xh);
    half *ghh = reinterpret_cast<half *>(gammah);
    for (uint32_t i = 0; i < N; i++) xf[i] = (i % H) < ORI_H ? static_cast<float>((i * 13u) % 29u) * 0.2f - 2.5f : 0.0f;
    for (uint32_t i = 0; i < H; i++) gf[i] = 0.5f + static_cast<float>(i % 7) * 0.25f;
    for (uint32_t i = 0; i < NH; i++) xhh[i] = half(static_cast<float>((i * 7u) % 19u) * 0.25f - 2.0f);
    for (uint32_t i = 0; i < HH; i++) ghh[i] = half(1.0f + static_cast<float>(i % 4) * 0.5f);

    uint32_t maxTmp = 0, minTmp = 0;
    const ge::Shape shapeF(std::vector<int64_t>{B, S, H}), oriF(std::vector<int64_t>{B, S, ORI_H});
    const ge::Shape shapeH(std::vector<int64_t>{1, SH, HH});
    bool ok = AscendC::GetRmsNormMaxMinTmpSize(shapeF, sizeof(float), maxTmp, minTmp);
    RmsNormTiling tf, th;
    ok = AscendC::GetRmsNormTilingInfo(shapeF, oriF, minTmp, sizeof(float), tf) && ok;
    ok = AscendC::GetRmsNormTilingInfo(shapeH, shapeH, 8 * 1024, sizeof(half), th) && ok;
    tf.SaveToBuffer(tilingF, sizeof(RmsNormTiling));
    th.SaveToBuffer(tilingH, sizeof(RmsNormTiling));
    reinterpret_cast<uint32_t *>(tilingF)[TILING_WORDS] = minTmp;
    reinterpret_cast<uint32_t *>(tilingH)[TILING_WORDS] = 0;

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(rms_norm_custom, 1, x, gamma, xh, gammah, tilingF, tilingH, out, outh);

    const float *of = reinterpret_cast<const float *>(out);
    const half *ohh = reinterpret_cast<const half *>(outh);
    uint32_t bad = 0;
    // The helpers: min (H + 8) floats, max (B*S*H + B*S rounded to 8) floats; one row per pass at the min.
    if (!ok || minTmp != (H + 8) * 4 || maxTmp != (N + 8) * 4 || tf.mainBsLength != 1 || tf.loopRound != B * S) {
        std::printf("helpers: ok %d min %u max %u mainBsLength %u loopRound %u\n", ok, minTmp, maxTmp,
                    tf.mainBsLength, tf.loopRound);
        bad++;
    }
    for (uint32_t r = 0; r < B * S; r++) {
        double sq = 0;
        for (uint32_t c = 0; c < H; c++) sq += static_cast<double>(xf[r * H + c]) * xf[r * H + c];
        const double scale = 1.0 / std::sqrt(sq / ORI_H + EPS);
        for (uint32_t c = 0; c < H; c++) {
            const double want = xf[r * H + c] * scale * gf[c];
            if (!(std::fabs(of[r * H + c] - want) <= 1e-5 * (1.0 + std::fabs(want)))) {
                if (bad < 10) std::printf("out[%u][%u] = %g, expected %g\n", r, c, of[r * H + c], want);
                bad++;
            }
        }
    }
    for (uint32_t r = 0; r < SH; r++) {
        double sq = 0;
        for (uint32_t c = 0; c < HH; c++) {
            const double v = static_cast<float>(xhh[r * HH + c]);
            sq += v * v;
        }
        const double scale = 1.0 / std::sqrt(sq / HH + static_cast<float>(half(EPS)));
        for (uint32_t c = 0; c < HH; c++) {
            const double want = static_cast<float>(xhh[r * HH + c]) * scale * static_cast<float>(ghh[c]);
            const double got = static_cast<float>(ohh[r * HH + c]);
            if (!(std::fabs(got - want) <= 2e-3 * (1.0 + std::fabs(want)))) {
                if (bad < 10) std::printf("outh[%u][%u] = %g, expected %g\n", r, c, got, want);
                bad++;
            }
        }
    }
    for (uint8_t *p : {x, gamma, xh, gammah, tilingF, tilingH, out, outh}) AscendC::GmFree((void *)p);
    std::printf("rms_norm: mismatches %u\n", bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
