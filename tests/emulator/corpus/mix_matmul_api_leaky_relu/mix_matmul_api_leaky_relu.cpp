// SPDX-License-Identifier: MIT
// A mix kernel with the Matmul high-level API: Y[M, N] = LeakyRelu(A[M, K] (half) x B[K, N] (half) +
// bias[N]) in float, KERNEL_TYPE_MIX_AIC_1_1. As on the device, the AIC serves the Matmul from
// REGIST_MATMUL_OBJ on and the AIV drives it: IterateAll writes the block's tile (with the bias) to a GM
// workspace, then the same AIV applies the leaky ReLU (docs/emulator.md, "Mixed AIC/AIV kernels"). The
// host tiling comes from matmul_tiling::MultiCoreMatmulTiling through GM. Checked against a double
// reference (fp32 accumulation bound).
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
constexpr uint32_t MAX_ROW = 512;
constexpr float SLOPE = 0.2f;

extern "C" __global__ __aicore__ void mix_matmul_api_leaky_relu(GM_ADDR a, GM_ADDR b, GM_ADDR bias, __kfc_workspace__ GM_ADDR ws,
                                                                GM_ADDR y, GM_ADDR tilingGm)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    TCubeTiling tiling;
    GlobalTensor<int32_t> words;
    words.SetGlobalBuffer((__gm__ int32_t *)tilingGm, TILING_WORDS);
    int32_t *dst = reinterpret_cast<int32_t *>(&tiling);
    for (uint32_t i = 0; i < TILING_WORDS; i++) dst[i] = words.GetValue(i);
    // 1 AIV a block: its GetBlockIdx() is the block's.
    const int32_t block = GetBlockIdx() / GetSubBlockNum();
    if (block >= tiling.usedCoreNum) return;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, wsGm, yGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer((__gm__ half *)b, tiling.Kb * tiling.N);
    biasGm.SetGlobalBuffer((__gm__ float *)bias, tiling.N);
    wsGm.SetGlobalBuffer((__gm__ float *)ws, tiling.M * tiling.N);
    yGm.SetGlobalBuffer((__gm__ float *)y, tiling.M * tiling.N);
    const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const int32_t m0 = (block % mBlocks) * tiling.singleCoreM, n0 = (block / mBlocks) * tiling.singleCoreN;
    const int32_t tailM = tiling.M - m0 < tiling.singleCoreM ? tiling.M - m0 : tiling.singleCoreM;
    const int32_t tailN = tiling.N - n0 < tiling.singleCoreN ? tiling.N - n0 : tiling.singleCoreN;

    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);  // the AIC serves from here on
    mm.SetTensorA(aGm[m0 * tiling.Ka]);
    mm.SetTensorB(bGm[n0]);
    mm.SetBias(biasGm[n0]);
    mm.SetTail(tailM, tailN);
    mm.IterateAll(wsGm[m0 * tiling.N + n0]);
    mm.End();

    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    pipe.InitBuffer(inQueue, 2, MAX_ROW * sizeof(float));
    pipe.InitBuffer(outQueue, 2, MAX_ROW * sizeof(float));
    for (int32_t r = 0; r < tailM; r++) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopy(x, wsGm[(m0 + r) * tiling.N + n0], tailN);
        inQueue.EnQue(x);
        LocalTensor<float> xi = inQueue.DeQue<float>();
        LocalTensor<float> o = outQueue.AllocTensor<float>();
        LeakyRelu(o, xi, SLOPE, tailN);
        outQueue.EnQue(o);
        inQueue.FreeTensor(xi);
        LocalTensor<float> oo = outQueue.DeQue<float>();
        DataCopy(yGm[(m0 + r) * tiling.N + n0], oo, tailN);
        outQueue.FreeTensor(oo);
    }
}

static int RunCase(int32_t m, int32_t n, int32_t k, int32_t blockDim)
{
    matmul_tiling::MultiCoreMatmulTiling tiler;
    tiler.SetDim(blockDim);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(m, n, k);
    tiler.SetOrgShape(m, n, k);
    tiler.SetBias(true);
    tiler.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling tiling;
    if (tiler.GetTiling(tiling) != 0) {
        std::printf("GetTiling failed\n");
        return 1;
    }
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(m * k * sizeof(half));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(k * n * sizeof(half));
    uint8_t *bias = (uint8_t *)AscendC::GmAlloc(n * sizeof(float));
    uint8_t *ws = (uint8_t *)AscendC::GmAlloc(m * n * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(m * n * sizeof(float));
    uint8_t *t = (uint8_t *)AscendC::GmAlloc(sizeof(TCubeTiling));
    tiling.SaveToBuffer(t, sizeof(TCubeTiling));
    half *ah = reinterpret_cast<half *>(a);
    half *bh = reinterpret_cast<half *>(b);
    float *biasf = reinterpret_cast<float *>(bias);
    float *yf = reinterpret_cast<float *>(y);
    for (int32_t i = 0; i < m * k; i++) ah[i] = half(static_cast<float>((i * 37 + 11) % 97) / 48.0f - 1.0f);
    for (int32_t i = 0; i < k * n; i++) bh[i] = half(static_cast<float>((i * 53 + 5) % 89) / 44.0f - 1.0f);
    for (int32_t j = 0; j < n; j++) biasf[j] = static_cast<float>((j * 29 + 3) % 41) / 8.0f - 2.5f;
    for (int32_t i = 0; i < m * n; i++) yf[i] = -12345.0f;
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mix_matmul_api_leaky_relu, blockDim, a, b, bias, ws, y, t);
    int bad = 0, negatives = 0;
    double maxErr = 0.0;
    for (int32_t i = 0; i < m; i++) {
        for (int32_t j = 0; j < n; j++) {
            double acc = biasf[j], mag = std::fabs(biasf[j]);
            for (int32_t kk = 0; kk < k; kk++) {
                const double p = static_cast<double>(static_cast<float>(ah[i * k + kk])) *
                                 static_cast<double>(static_cast<float>(bh[kk * n + j]));
                acc += p;
                mag += std::fabs(p);
            }
            const double ref = acc >= 0 ? acc : SLOPE * acc;
            negatives += acc < 0 ? 1 : 0;
            const double err = std::fabs(static_cast<double>(yf[i * n + j]) - ref);
            const double tol = 2.0 * (k + 1) * std::ldexp(1.0, -24) * mag + 2.0 * std::ldexp(1.0, -24) * std::fabs(acc) + 1e-30;
            if (err > maxErr) maxErr = err;
            if (err > tol) {
                if (bad < 5) std::printf("Y[%d,%d] = %.8g, expected %.8g\n", i, j, yf[i * n + j], ref);
                bad++;
            }
        }
    }
    if (negatives == 0 || negatives == m * n) {
        std::printf("the inputs do not exercise both sides of the leaky ReLU\n");
        bad++;
    }
    std::printf("mix_matmul_api_leaky_relu %dx%dx%d on %d blocks (used %d) x (1 AIC + 1 AIV): max abs error %.3g, "
                "mismatches %d\n",
                m, n, k, blockDim, tiling.usedCoreNum, maxErr, bad);
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)bias);
    AscendC::GmFree((void *)ws);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)t);
    return bad;
}

int main()
{
    int bad = 0;
    bad += RunCase(96, 128, 64, 2);
    bad += RunCase(150, 320, 77, 4);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
