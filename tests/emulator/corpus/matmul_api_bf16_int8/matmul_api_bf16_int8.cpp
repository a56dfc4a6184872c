// The Matmul high-level API with bfloat16 and int8 inputs: C = A x B (+ bias) with the host tiling from
// matmul_tiling::MultiCoreMatmulTiling (DT_BF16 / DT_INT8 A and B). bf16 -> float C and bf16 -> bf16 C
// accumulate in fp32 (L0C) and round once at the Fixpipe; int8 -> int32 C accumulates exactly in int32,
// with an int32 bias. Multi-block, unaligned M/N/K, one case through Iterate + GetTensorC. Checked
// against a double-precision model: within the fp32 accumulation bound (plus one bf16 rounding) for
// bf16, bit-exact for int8.
#include <cmath>
#include <cstdint>
#include <cstdio>
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

template <typename IN_T, typename C_T, typename BIAS_T, bool STEP_BY_TILE>
__aicore__ inline void MatmulBlock(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    CopyTiling(&tiling, tilingGm);
    if (GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum)) return;
    GlobalTensor<IN_T> aGm, bGm;
    GlobalTensor<BIAS_T> biasGm;
    GlobalTensor<C_T> cGm;
    aGm.SetGlobalBuffer((__gm__ IN_T *)a, tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer((__gm__ IN_T *)b, tiling.Kb * tiling.N);
    biasGm.SetGlobalBuffer((__gm__ BIAS_T *)bias, tiling.N);
    cGm.SetGlobalBuffer((__gm__ C_T *)c, tiling.M * tiling.N);
    const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const int32_t m0 = (GetBlockIdx() % mBlocks) * tiling.singleCoreM;
    const int32_t n0 = (GetBlockIdx() / mBlocks) * tiling.singleCoreN;
    const int32_t tailM = tiling.M - m0 < tiling.singleCoreM ? tiling.M - m0 : tiling.singleCoreM;
    const int32_t tailN = tiling.N - n0 < tiling.singleCoreN ? tiling.N - n0 : tiling.singleCoreN;

    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, IN_T>, MatmulType<TPosition::GM, CubeFormat::ND, IN_T>,
           MatmulType<TPosition::GM, CubeFormat::ND, C_T>, MatmulType<TPosition::GM, CubeFormat::ND, BIAS_T>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(aGm[m0 * tiling.Ka]);
    mm.SetTensorB(bGm[n0]);
    if (tiling.isBias) mm.SetBias(biasGm[n0]);
    mm.SetTail(tailM, tailN);
    if (STEP_BY_TILE) {
        while (mm.Iterate()) mm.GetTensorC(cGm[m0 * tiling.N + n0]);
    } else {
        mm.IterateAll(cGm[m0 * tiling.N + n0]);
    }
    mm.End();
}

extern "C" __global__ __aicore__ void matmul_api_bf16_f32(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR t)
{
    MatmulBlock<bfloat16_t, float, float, false>(a, b, bias, c, t);
}
extern "C" __global__ __aicore__ void matmul_api_bf16_bf16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR t)
{
    MatmulBlock<bfloat16_t, bfloat16_t, float, true>(a, b, bias, c, t);
}
extern "C" __global__ __aicore__ void matmul_api_int8_int32(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR t)
{
    MatmulBlock<int8_t, int32_t, int32_t, false>(a, b, bias, c, t);
}

enum class Form { Bf16F32, Bf16Bf16, Int8Int32 };

static bool Tiling(Form form, int32_t m, int32_t n, int32_t k, bool withBias, int32_t blockDim, optiling::TCubeTiling &t)
{
    using matmul_tiling::DataType;
    const DataType in = form == Form::Int8Int32 ? DataType::DT_INT8 : DataType::DT_BF16;
    const DataType out = form == Form::Int8Int32 ? DataType::DT_INT32
                         : form == Form::Bf16Bf16 ? DataType::DT_BF16
                                                  : DataType::DT_FLOAT;
    matmul_tiling::MultiCoreMatmulTiling tiler;
    tiler.SetDim(blockDim);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, out);
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      form == Form::Int8Int32 ? DataType::DT_INT32 : DataType::DT_FLOAT);
    tiler.SetShape(m, n, k);
    tiler.SetOrgShape(m, n, k);
    tiler.SetBias(withBias);
    tiler.SetBufferSpace(-1, -1, -1);
    return tiler.GetTiling(t) == 0;
}

static int RunCase(const char *name, Form form, int32_t m, int32_t n, int32_t k, bool withBias, int32_t blockDim)
{
    optiling::TCubeTiling tiling;
    if (!Tiling(form, m, n, k, withBias, blockDim, tiling)) {
        std::printf("%s: GetTiling failed\n", name);
        return 1;
    }
    if (tiling.usedCoreNum > blockDim || tiling.usedCoreNum < 2) {
        std::printf("%s: usedCoreNum %d for %d cores\n", name, tiling.usedCoreNum, blockDim);
        return 1;
    }
    const bool int8 = form == Form::Int8Int32;
    const size_t inSize = int8 ? 1 : 2;
    const size_t cSize = form == Form::Bf16Bf16 ? 2 : 4;
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(m * k * inSize);
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(k * n * inSize);
    uint8_t *bias = (uint8_t *)AscendC::GmAlloc(n * 4);
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(m * n * cSize);
    uint8_t *t = (uint8_t *)AscendC::GmAlloc(sizeof(TCubeTiling));
    tiling.SaveToBuffer(t, sizeof(TCubeTiling));
    // Inputs as doubles (what the model multiplies), stored in the kernel's types.
    auto aVal = [&](int32_t i) { return int8 ? double((i * 37 + 11) % 255 - 127) : double((i * 37 + 11) % 97) / 48.0 - 1.0; };
    auto bVal = [&](int32_t i) { return int8 ? double((i * 53 + 5) % 251 - 125) : double((i * 53 + 5) % 89) / 44.0 - 1.0; };
    auto biasVal = [&](int32_t j) { return int8 ? double((j * 7919) % 20001 - 10000) : double(j % 13) * 0.25 - 1.5; };
    for (int32_t i = 0; i < m * k; i++) {
        if (int8) reinterpret_cast<int8_t *>(a)[i] = static_cast<int8_t>(aVal(i));
        else reinterpret_cast<bfloat16_t *>(a)[i] = bfloat16_t(static_cast<float>(aVal(i)));
    }
    for (int32_t i = 0; i < k * n; i++) {
        if (int8) reinterpret_cast<int8_t *>(b)[i] = static_cast<int8_t>(bVal(i));
        else reinterpret_cast<bfloat16_t *>(b)[i] = bfloat16_t(static_cast<float>(bVal(i)));
    }
    for (int32_t j = 0; j < n; j++) {
        if (int8) reinterpret_cast<int32_t *>(bias)[j] = static_cast<int32_t>(biasVal(j));
        else reinterpret_cast<float *>(bias)[j] = static_cast<float>(biasVal(j));
    }
    for (size_t i = 0; i < size_t(m) * n * cSize; i++) c[i] = 0x5a;
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    if (form == Form::Bf16F32) ICPU_RUN_KF(matmul_api_bf16_f32, blockDim, a, b, bias, c, t);
    if (form == Form::Bf16Bf16) ICPU_RUN_KF(matmul_api_bf16_bf16, blockDim, a, b, bias, c, t);
    if (form == Form::Int8Int32) ICPU_RUN_KF(matmul_api_int8_int32, blockDim, a, b, bias, c, t);
    // The model reads the inputs back as the kernel saw them (bf16 rounds the generated values).
    auto aIn = [&](int32_t i) {
        return int8 ? double(reinterpret_cast<int8_t *>(a)[i]) : double(float(reinterpret_cast<bfloat16_t *>(a)[i]));
    };
    auto bIn = [&](int32_t i) {
        return int8 ? double(reinterpret_cast<int8_t *>(b)[i]) : double(float(reinterpret_cast<bfloat16_t *>(b)[i]));
    };
    int bad = 0;
    double maxErr = 0.0;
    for (int32_t i = 0; i < m; i++) {
        for (int32_t j = 0; j < n; j++) {
            double ref = withBias ? biasVal(j) : 0.0, mag = std::fabs(ref);
            for (int32_t kk = 0; kk < k; kk++) {
                const double p = aIn(i * k + kk) * bIn(kk * n + j);
                ref += p;
                mag += std::fabs(p);
            }
            double got = 0.0, tol = 0.0;
            if (form == Form::Int8Int32) {
                got = double(reinterpret_cast<int32_t *>(c)[i * n + j]);  // exact: int32 accumulation
            } else if (form == Form::Bf16F32) {
                got = double(reinterpret_cast<float *>(c)[i * n + j]);
                tol = 2.0 * (k + 1) * std::ldexp(1.0, -24) * mag + 1e-30;
            } else {
                got = double(float(reinterpret_cast<bfloat16_t *>(c)[i * n + j]));
                // One rounding of the fp32 sum to bf16 (8 significant bits: half an ulp is 2^-8 relative).
                tol = 2.0 * (k + 1) * std::ldexp(1.0, -24) * mag + std::ldexp(std::fabs(ref), -8) * (1.0 + 1e-6) +
                      std::ldexp(1.0, -133);
            }
            const double err = std::fabs(got - ref);
            if (err > maxErr) maxErr = err;
            if (err > tol) {
                if (bad < 5) std::printf("%s: C[%d,%d] = %.10g, expected %.10g\n", name, i, j, got, ref);
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

int main()
{
    int bad = 0;
    bad += RunCase("bf16_f32", Form::Bf16F32, 256, 384, 320, false, 4);        // several base tiles and K tiles
    bad += RunCase("bf16_f32_bias", Form::Bf16F32, 150, 333, 77, true, 4);     // unaligned M, N, K; bias
    bad += RunCase("bf16_bf16_iterate", Form::Bf16Bf16, 200, 300, 90, true, 2); // bf16 C, Iterate + GetTensorC
    bad += RunCase("int8_int32", Form::Int8Int32, 256, 256, 512, false, 4);    // exact int32 sums, large K
    bad += RunCase("int8_int32_bias", Form::Int8Int32, 77, 190, 100, true, 3); // unaligned; int32 bias
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
