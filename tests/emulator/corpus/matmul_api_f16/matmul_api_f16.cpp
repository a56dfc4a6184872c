// C[M, N] = A[M, K] (half) x B[K, N] (half) (+ bias[N]) through the Matmul high-level API, with the host
// tiling from matmul_tiling::MultiCoreMatmulTiling passed through GM as an operator's host would. Each
// block takes its single-core tile from the tiling, shortens it at the matrix's edges with SetTail and
// runs IterateAll; one case walks the base tiles with Iterate + GetTensorC instead. fp32 C with and
// without bias, fp16 C with bias, unaligned M/N/K, B transposed. Checked against a double-precision
// reference.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"
#include "tikicpulib.h"

using namespace AscendC;
using namespace matmul;

constexpr uint32_t TILING_WORDS = sizeof(TCubeTiling) / sizeof(int32_t);

__aicore__ inline void CopyTiling(TCubeTiling *tiling, GM_ADDR tilingGm)
{
    GlobalTensor<int32_t> words;
    words.SetGlobalBuffer((__gm__ int32_t *)tilingGm, TILING_WORDS);
    int32_t *dst = reinterpret_cast<int32_t *>(tiling);
    for (uint32_t i = 0; i < TILING_WORDS; i++) dst[i] = words.GetValue(i);
}

template <typename C_T, bool TRANS_B, bool STEP_BY_TILE>
__aicore__ inline void MatmulBlock(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    CopyTiling(&tiling, tilingGm);
    if (GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum)) return;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm;
    GlobalTensor<C_T> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer((__gm__ half *)b, tiling.Kb * tiling.N);
    biasGm.SetGlobalBuffer((__gm__ float *)bias, tiling.N);
    cGm.SetGlobalBuffer((__gm__ C_T *)c, tiling.M * tiling.N);

    const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const int32_t mIdx = GetBlockIdx() % mBlocks, nIdx = GetBlockIdx() / mBlocks;
    const int32_t m0 = mIdx * tiling.singleCoreM, n0 = nIdx * tiling.singleCoreN;
    const int32_t tailM = tiling.M - m0 < tiling.singleCoreM ? tiling.M - m0 : tiling.singleCoreM;
    const int32_t tailN = tiling.N - n0 < tiling.singleCoreN ? tiling.N - n0 : tiling.singleCoreN;
    // B is [K, N] row-major, or [N, K] row-major when transposed.
    const int32_t offsetB = TRANS_B ? n0 * tiling.Kb : n0;

    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half, TRANS_B>,
           MatmulType<TPosition::GM, CubeFormat::ND, C_T>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(aGm[m0 * tiling.Ka]);
    mm.SetTensorB(bGm[offsetB], TRANS_B);
    if (tiling.isBias) mm.SetBias(biasGm[n0]);
    mm.SetTail(tailM, tailN);
    if (STEP_BY_TILE) {
        while (mm.Iterate()) mm.GetTensorC(cGm[m0 * tiling.N + n0]);
    } else {
        mm.IterateAll(cGm[m0 * tiling.N + n0]);
    }
    mm.End();
}

extern "C" __global__ __aicore__ void matmul_api_f16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling)
{
    MatmulBlock<float, false, false>(a, b, bias, c, tiling);
}
extern "C" __global__ __aicore__ void matmul_api_f16_trans_b(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                             GM_ADDR tiling)
{
    MatmulBlock<float, true, false>(a, b, bias, c, tiling);
}
extern "C" __global__ __aicore__ void matmul_api_f16_iterate(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                             GM_ADDR tiling)
{
    MatmulBlock<float, false, true>(a, b, bias, c, tiling);
}
extern "C" __global__ __aicore__ void matmul_api_f16_half_c(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                            GM_ADDR tiling)
{
    MatmulBlock<half, false, false>(a, b, bias, c, tiling);
}

enum class Form { All, TransB, Iterate, HalfC };

static int RunCase(const char *name, Form form, int32_t m, int32_t n, int32_t k, bool withBias, int32_t blockDim)
{
    matmul_tiling::MultiCoreMatmulTiling tiler;
    tiler.SetDim(blockDim);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16,
                   form == Form::TransB);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                   form == Form::HalfC ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(m, n, k);
    tiler.SetOrgShape(m, n, k);
    tiler.SetBias(withBias);
    tiler.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling tiling;
    if (tiler.GetTiling(tiling) != 0) {
        std::printf("%s: GetTiling failed\n", name);
        return 1;
    }
    if (tiling.usedCoreNum > blockDim || tiling.usedCoreNum < 2) {
        std::printf("%s: usedCoreNum %d for %d cores\n", name, tiling.usedCoreNum, blockDim);
        return 1;
    }

    uint8_t *a = (uint8_t *)AscendC::GmAlloc(m * k * sizeof(half));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(k * n * sizeof(half));
    uint8_t *bias = (uint8_t *)AscendC::GmAlloc(n * sizeof(float));
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(m * n * (form == Form::HalfC ? sizeof(half) : sizeof(float)));
    uint8_t *t = (uint8_t *)AscendC::GmAlloc(sizeof(TCubeTiling));
    tiling.SaveToBuffer(t, sizeof(TCubeTiling));
    half *ah = reinterpret_cast<half *>(a);
    half *bh = reinterpret_cast<half *>(b);
    float *biasf = reinterpret_cast<float *>(bias);
    float *cf = reinterpret_cast<float *>(c);
    half *ch = reinterpret_cast<half *>(c);
    for (int32_t i = 0; i < m * k; i++) ah[i] = half(static_cast<float>((i * 37 + 11) % 97) / 48.0f - 1.0f);
    for (int32_t i = 0; i < k * n; i++) bh[i] = half(static_cast<float>((i * 53 + 5) % 89) / 44.0f - 1.0f);
    for (int32_t i = 0; i < n; i++) biasf[i] = static_cast<float>(i % 13) * 0.25f - 1.5f;
    for (int32_t i = 0; i < m * n; i++) {
        if (form == Form::HalfC)
            ch[i] = half(-1234.0f);
        else
            cf[i] = -12345.0f;
    }
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    if (form == Form::All) ICPU_RUN_KF(matmul_api_f16, blockDim, a, b, bias, c, t);
    if (form == Form::TransB) ICPU_RUN_KF(matmul_api_f16_trans_b, blockDim, a, b, bias, c, t);
    if (form == Form::Iterate) ICPU_RUN_KF(matmul_api_f16_iterate, blockDim, a, b, bias, c, t);
    if (form == Form::HalfC) ICPU_RUN_KF(matmul_api_f16_half_c, blockDim, a, b, bias, c, t);
    int bad = 0;
    double maxErr = 0.0;
    for (int32_t i = 0; i < m; i++) {
        for (int32_t j = 0; j < n; j++) {
            double ref = withBias ? static_cast<double>(biasf[j]) : 0.0, mag = std::fabs(ref);
            for (int32_t kk = 0; kk < k; kk++) {
                const half bv = form == Form::TransB ? bh[j * k + kk] : bh[kk * n + j];
                const double p = static_cast<double>(static_cast<float>(ah[i * k + kk])) *
                                 static_cast<double>(static_cast<float>(bv));
                ref += p;
                mag += std::fabs(p);
            }
            const double got = form == Form::HalfC ? static_cast<double>(static_cast<float>(ch[i * n + j]))
                                                   : static_cast<double>(cf[i * n + j]);
            const double err = std::fabs(got - ref);
            // fp32 accumulation of exact fp16 products: error bounded by (k + 1) * 2^-24 * sum |terms|;
            // a half C adds one rounding to nearest (half an ulp: 2^-11 relative, 2^-25 below the normals).
            double tol = 2.0 * (k + 1) * std::ldexp(1.0, -24) * mag + 1e-30;
            if (form == Form::HalfC) tol += std::ldexp(std::fabs(ref), -11) * (1.0 + 1e-6) + std::ldexp(1.0, -25);
            if (err > maxErr) maxErr = err;
            if (err > tol) {
                if (bad < 5) std::printf("%s: C[%d,%d] = %.8g, expected %.8g\n", name, i, j, got, ref);
                bad++;
            }
        }
    }
    std::printf("%s %dx%dx%d%s on %d of %d blocks (single %dx%d, base %dx%dx%d): max abs error %.3g, mismatches %d\n",
                name, m, n, k, withBias ? " +bias" : "", tiling.usedCoreNum, blockDim, tiling.singleCoreM,
                tiling.singleCoreN, tiling.baseM, tiling.baseN, tiling.baseK, maxErr, bad);
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)bias);
    AscendC::GmFree((void *)c);
    AscendC::GmFree((void *)t);
    return bad;
}

// The host tiler's contract: tilings that fit the 910B's L0A/L0B (64 KB), L0C (128 KB) and L1 (512 KB)
// with 16-multiple base tiles, and -1 for inputs that are invalid or cannot fit.
static int HostTilingChecks()
{
    auto make = [](int32_t m, int32_t n, int32_t k, int32_t dim) {
        matmul_tiling::MultiCoreMatmulTiling t;
        t.SetDim(dim);
        t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
        t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
        t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
        t.SetShape(m, n, k);
        t.SetOrgShape(m, n, k);
        t.SetBias(true);
        return t;
    };
    int bad = 0;
    const int32_t shapes[][4] = {{2048, 2048, 2048, 24}, {1, 4096, 8192, 8}, {4096, 16, 33, 20}, {17, 19, 23, 1},
                                 {128, 128, 4096, 1}, {512, 512, 1024, 16}};
    for (const auto &sh : shapes) {
        matmul_tiling::MultiCoreMatmulTiling tiler = make(sh[0], sh[1], sh[2], sh[3]);
        optiling::TCubeTiling t;
        if (tiler.GetTiling(t) != 0) {
            std::printf("tiling %dx%dx%d on %d: GetTiling failed\n", sh[0], sh[1], sh[2], sh[3]);
            bad++;
            continue;
        }
        const int64_t l0a = int64_t(t.baseM) * t.baseK * 2 * t.dbL0A, l0b = int64_t(t.baseN) * t.baseK * 2 * t.dbL0B;
        const int64_t l0c = int64_t(t.baseM) * t.baseN * 4 * t.dbL0C;
        const int64_t l1 = int64_t(t.depthA1) * t.baseM * t.baseK * 2 + int64_t(t.depthB1) * t.baseN * t.baseK * 2 +
                           t.baseN * 4;
        const bool ok = t.baseM % 16 == 0 && t.baseN % 16 == 0 && t.baseK % 16 == 0 && l0a <= 65536 &&
                        l0b <= 65536 && l0c <= 131072 && l1 <= 524288 && t.usedCoreNum >= 1 &&
                        t.usedCoreNum <= sh[3] && t.singleCoreK == sh[2] &&
                        int64_t(t.usedCoreNum) * t.singleCoreM * t.singleCoreN >= int64_t(sh[0]) * sh[1];
        if (!ok) {
            std::printf("tiling %dx%dx%d on %d: base %dx%dx%d, %d cores, L0A %lld L0B %lld L0C %lld L1 %lld\n", sh[0],
                        sh[1], sh[2], sh[3], t.baseM, t.baseN, t.baseK, t.usedCoreNum, (long long)l0a,
                        (long long)l0b, (long long)l0c, (long long)l1);
            bad++;
        }
    }
    optiling::TCubeTiling t;
    // Equal cost either way: the M split, as CANN's tiler picks for 512 x 512 x 128 on 2 cores.
    matmul_tiling::MultiCoreMatmulTiling square = make(512, 512, 128, 2);
    if (square.GetTiling(t) != 0 || t.singleCoreM != 256 || t.singleCoreN != 512 || t.usedCoreNum != 2) {
        std::printf("tiling 512x512x128 on 2: single %dx%d on %d cores, expected 256x512 on 2\n", t.singleCoreM,
                    t.singleCoreN, t.usedCoreNum);
        bad++;
    }
    matmul_tiling::MultiCoreMatmulTiling tooBig = make(256, 256, 256, 4);
    tooBig.SetFixSplit(256, 256, 64);  // 256 x 256 fp32 = 256 KB > L0C
    matmul_tiling::MultiCoreMatmulTiling empty = make(0, 64, 64, 4);
    matmul_tiling::MultiCoreMatmulTiling noCores = make(64, 64, 64, 0);
    matmul_tiling::MultiCoreMatmulTiling oddBase = make(64, 64, 64, 1);
    oddBase.SetFixSplit(24, 32, 32);
    matmul_tiling::MatmulApiTiling noTypes;
    noTypes.SetShape(64, 64, 64);
    const int64_t rc[] = {tooBig.GetTiling(t), empty.GetTiling(t), noCores.GetTiling(t), oddBase.GetTiling(t),
                          noTypes.GetTiling(t)};
    for (int64_t r : rc) bad += r == -1 ? 0 : 1;
    std::printf("host tiling checks: %d failed\n", bad);
    return bad;
}

int main()
{
    int bad = HostTilingChecks();
    bad += RunCase("aligned", Form::All, 256, 512, 320, false, 4);        // several base tiles and K tiles per block
    bad += RunCase("unaligned_bias", Form::All, 150, 333, 77, true, 4);    // unaligned M, N, K; tails; bias
    bad += RunCase("trans_b", Form::TransB, 96, 200, 130, true, 3);        // B given as [N, K]
    bad += RunCase("iterate", Form::Iterate, 200, 600, 90, true, 2);       // Iterate + GetTensorC per base tile
    bad += RunCase("half_c", Form::HalfC, 130, 270, 100, true, 4);         // fp16 C: one rounding at the Fixpipe
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
