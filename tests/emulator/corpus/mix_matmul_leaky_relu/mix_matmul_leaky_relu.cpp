// SPDX-License-Identifier: MIT
// A mix kernel: Y[M, N] = LeakyRelu(A[M, K] (half) x B[K, N] (half) + bias[N]) in float. Each block's AIC
// computes its row band of A x B with the basic cube API into a GM workspace; its AIVs (GetSubBlockIdx
// 0 and 1) split the band's rows, add the bias and apply the leaky ReLU once the AIC's data is there.
// Two hand-offs: CrossCoreSetFlag<2, PIPE_FIX> / CrossCoreWaitFlag with KERNEL_TYPE_MIX_AIC_1_2 (1 AIC + 2
// AIV a block), and SyncAll<false> with __mix__(1, 1) (1 AIC + 1 AIV). Every AIV also records what
// GetBlockIdx / GetSubBlockIdx / GetSubBlockNum / ASCEND_IS_AIV say on it. Checked against a double
// reference (fp32 accumulation bound).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BASE_M = 64;
constexpr uint32_t BASE_N = 128;
constexpr uint32_t BASE_K = 64;
constexpr uint32_t MAX_N = 256;
constexpr uint16_t FLAG_C_READY = 3;
constexpr float SLOPE = 0.1f;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Align16(uint32_t a) { return CeilDiv(a, 16) * 16; }

class MatmulLeakyRelu {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR ws, GM_ADDR y, GM_ADDR ids,
                                uint32_t m, uint32_t n, uint32_t k)
    {
        M = m;
        N = n;
        K = k;
        m0 = GetBlockIdx() * BASE_M;
        if (ASCEND_IS_AIV) m0 = (GetBlockIdx() / GetSubBlockNum()) * BASE_M;
        mLen = M - m0 < BASE_M ? M - m0 : BASE_M;
        aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
        bGm.SetGlobalBuffer((__gm__ half *)b, K * N);
        biasGm.SetGlobalBuffer((__gm__ float *)bias, N);
        wsGm.SetGlobalBuffer((__gm__ float *)ws, M * N);
        yGm.SetGlobalBuffer((__gm__ float *)y, M * N);
        idsGm.SetGlobalBuffer((__gm__ int32_t *)ids, 64 * 4);
        if ASCEND_IS_AIC {
            pipe.InitBuffer(inQueueA1, 1, BASE_M * BASE_K * sizeof(half));
            pipe.InitBuffer(inQueueB1, 1, BASE_K * BASE_N * sizeof(half));
            pipe.InitBuffer(inQueueA2, 1, BASE_M * BASE_K * sizeof(half));
            pipe.InitBuffer(inQueueB2, 1, BASE_K * BASE_N * sizeof(half));
            pipe.InitBuffer(outQueueCO1, 1, BASE_M * BASE_N * sizeof(float));
        }
        if ASCEND_IS_AIV {
            pipe.InitBuffer(inQueueRow, 2, MAX_N * sizeof(float));
            pipe.InitBuffer(outQueueRow, 2, MAX_N * sizeof(float));
            pipe.InitBuffer(biasBuf, MAX_N * sizeof(float));
        }
    }
    // The AIC: C = A x B for the block's rows, tile by tile into the workspace.
    __aicore__ inline void CubePart()
    {
        const uint32_t tilesN = CeilDiv(N, BASE_N);
        for (uint32_t t = 0; t < tilesN; t++) {
            const uint32_t n0 = t * BASE_N;
            const uint32_t nLen = N - n0 < BASE_N ? N - n0 : BASE_N;
            LocalTensor<float> c1 = outQueueCO1.AllocTensor<float>();
            for (uint32_t k0 = 0; k0 < K; k0 += BASE_K) {
                const uint32_t kLen = K - k0 < BASE_K ? K - k0 : BASE_K;
                LocalTensor<half> a1 = inQueueA1.AllocTensor<half>();
                LocalTensor<half> b1 = inQueueB1.AllocTensor<half>();
                DataCopy(a1, aGm[m0 * K + k0], Nd2NzParams(1, mLen, kLen, 0, K, Align16(mLen), 1, 0));
                DataCopy(b1, bGm[k0 * N + n0], Nd2NzParams(1, kLen, nLen, 0, N, Align16(kLen), 1, 0));
                inQueueA1.EnQue(a1);
                inQueueB1.EnQue(b1);
                SplitA(kLen);
                SplitB(nLen, kLen);
                LocalTensor<half> a2 = inQueueA2.DeQue<half>();
                LocalTensor<half> b2 = inQueueB2.DeQue<half>();
                MmadParams params;
                params.m = mLen;
                params.n = nLen;
                params.k = kLen;
                params.cmatrixInitVal = k0 == 0;
                Mmad(c1, a2, b2, params);
                inQueueA2.FreeTensor(a2);
                inQueueB2.FreeTensor(b2);
            }
            outQueueCO1.EnQue(c1);
            LocalTensor<float> c = outQueueCO1.DeQue<float>();
            FixpipeParamsV220 fix(nLen, mLen, Align16(mLen), N, false);
            Fixpipe(wsGm[m0 * N + n0], c, fix);
            outQueueCO1.FreeTensor(c);
        }
    }
    // An AIV: bias + leaky ReLU on its share of the block's rows.
    __aicore__ inline void VectorPart()
    {
        const uint32_t subs = GetSubBlockNum();
        const uint32_t share = CeilDiv(mLen, subs);
        const uint32_t r0 = GetSubBlockIdx() * share;
        const uint32_t r1 = r0 + share < mLen ? r0 + share : mLen;
        const int32_t me = GetBlockIdx();
        idsGm.SetValue(me * 4 + 0, me);
        idsGm.SetValue(me * 4 + 1, GetSubBlockIdx());
        idsGm.SetValue(me * 4 + 2, GetSubBlockNum());
        idsGm.SetValue(me * 4 + 3, ASCEND_IS_AIV ? 1 : 0);
        LocalTensor<float> biasLocal = biasBuf.Get<float>();
        DataCopy(biasLocal, biasGm, N);
        for (uint32_t r = r0; r < r1; r++) {
            LocalTensor<float> row = inQueueRow.AllocTensor<float>();
            DataCopy(row, wsGm[(m0 + r) * N], N);
            inQueueRow.EnQue(row);
            LocalTensor<float> x = inQueueRow.DeQue<float>();
            LocalTensor<float> out = outQueueRow.AllocTensor<float>();
            Add(x, x, biasLocal, N);
            LeakyRelu(out, x, SLOPE, N);
            outQueueRow.EnQue(out);
            inQueueRow.FreeTensor(x);
            LocalTensor<float> o = outQueueRow.DeQue<float>();
            DataCopy(yGm[(m0 + r) * N], o, N);
            outQueueRow.FreeTensor(o);
        }
    }

private:
    __aicore__ inline void SplitA(uint32_t kLen)
    {
        const uint32_t mBlocks = CeilDiv(mLen, 16), kBlocks = CeilDiv(kLen, 16);
        LocalTensor<half> a1 = inQueueA1.DeQue<half>();
        LocalTensor<half> a2 = inQueueA2.AllocTensor<half>();
        for (uint32_t i = 0; i < mBlocks; i++) {
            LoadData(a2[i * kBlocks * 256], a1, LoadData2DParams(i, kBlocks, mBlocks, 0, 0, false, 0));
        }
        inQueueA2.EnQue(a2);
        inQueueA1.FreeTensor(a1);
    }
    __aicore__ inline void SplitB(uint32_t nLen, uint32_t kLen)
    {
        const uint32_t nBlocks = CeilDiv(nLen, 16), kBlocks = CeilDiv(kLen, 16);
        LocalTensor<half> b1 = inQueueB1.DeQue<half>();
        LocalTensor<half> b2 = inQueueB2.AllocTensor<half>();
        for (uint32_t i = 0; i < kBlocks; i++) {
            LoadData(b2[i * nBlocks * 256], b1, LoadData2DParams(i, nBlocks, kBlocks, 0, 0, true, 0));
        }
        inQueueB2.EnQue(b2);
        inQueueB1.FreeTensor(b1);
    }

    TPipe pipe;
    TQue<TPosition::A1, 1> inQueueA1;
    TQue<TPosition::B1, 1> inQueueB1;
    TQue<TPosition::A2, 1> inQueueA2;
    TQue<TPosition::B2, 1> inQueueB2;
    TQue<TPosition::CO1, 1> outQueueCO1;
    TQue<TPosition::VECIN, 2> inQueueRow;
    TQue<TPosition::VECOUT, 2> outQueueRow;
    TBuf<TPosition::VECCALC> biasBuf;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<float> biasGm;
    GlobalTensor<float> wsGm;
    GlobalTensor<float> yGm;
    GlobalTensor<int32_t> idsGm;
    uint32_t M, N, K, m0, mLen;
};

// 1 AIC + 2 AIV a block; the AIC's mode-2 set releases both AIVs of its block.
extern "C" __global__ __aicore__ void matmul_leaky_relu_flags(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR ws,
                                                              GM_ADDR y, GM_ADDR ids, uint32_t m, uint32_t n,
                                                              uint32_t k)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    MatmulLeakyRelu op;
    op.Init(a, b, bias, ws, y, ids, m, n, k);
    if ASCEND_IS_AIC {
        op.CubePart();
        CrossCoreSetFlag<2, PIPE_FIX>(FLAG_C_READY);
    }
    if ASCEND_IS_AIV {
        CrossCoreWaitFlag(FLAG_C_READY);
        op.VectorPart();
    }
}

// 1 AIC + 1 AIV a block (__mix__(1, 1)); the hand-off is a SyncAll of every AIC and AIV.
extern "C" __global__ __mix__(1, 1) __aicore__ void matmul_leaky_relu_sync_all(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                                               GM_ADDR ws, GM_ADDR y, GM_ADDR ids,
                                                                               uint32_t m, uint32_t n, uint32_t k)
{
    MatmulLeakyRelu op;
    op.Init(a, b, bias, ws, y, ids, m, n, k);
    if ASCEND_IS_AIC {
        op.CubePart();
    }
    SyncAll<false>();
    if ASCEND_IS_AIV {
        op.VectorPart();
    }
}

static int RunCase(bool flags, uint32_t m, uint32_t n, uint32_t k)
{
    const uint32_t blockDim = CeilDiv(m, BASE_M);
    const uint32_t aivs = flags ? 2 : 1;
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(m * k * sizeof(half));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(k * n * sizeof(half));
    uint8_t *bias = (uint8_t *)AscendC::GmAlloc(n * sizeof(float));
    uint8_t *ws = (uint8_t *)AscendC::GmAlloc(m * n * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(m * n * sizeof(float));
    uint8_t *ids = (uint8_t *)AscendC::GmAlloc(64 * 4 * sizeof(int32_t));
    half *ah = reinterpret_cast<half *>(a);
    half *bh = reinterpret_cast<half *>(b);
    float *biasf = reinterpret_cast<float *>(bias);
    float *yf = reinterpret_cast<float *>(y);
    int32_t *idv = reinterpret_cast<int32_t *>(ids);
    for (uint32_t i = 0; i < m * k; i++) ah[i] = half(static_cast<float>((i * 37 + 11) % 97) / 48.0f - 1.0f);
    for (uint32_t i = 0; i < k * n; i++) bh[i] = half(static_cast<float>((i * 53 + 5) % 89) / 44.0f - 1.0f);
    for (uint32_t j = 0; j < n; j++) biasf[j] = static_cast<float>((j * 29 + 3) % 41) / 8.0f - 2.5f;
    for (uint32_t i = 0; i < m * n; i++) yf[i] = -12345.0f;
    for (uint32_t i = 0; i < 64 * 4; i++) idv[i] = -1;
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    if (flags)
        ICPU_RUN_KF(matmul_leaky_relu_flags, blockDim, a, b, bias, ws, y, ids, m, n, k);
    else
        ICPU_RUN_KF(matmul_leaky_relu_sync_all, blockDim, a, b, bias, ws, y, ids, m, n, k);
    int bad = 0, negatives = 0;
    double maxErr = 0.0;
    for (uint32_t i = 0; i < m; i++) {
        for (uint32_t j = 0; j < n; j++) {
            double acc = 0.0, mag = 0.0;
            for (uint32_t kk = 0; kk < k; kk++) {
                const double p = static_cast<double>(static_cast<float>(ah[i * k + kk])) *
                                 static_cast<double>(static_cast<float>(bh[kk * n + j]));
                acc += p;
                mag += std::fabs(p);
            }
            const double pre = acc + biasf[j];
            const double ref = pre >= 0 ? pre : SLOPE * pre;
            negatives += pre < 0 ? 1 : 0;
            const double err = std::fabs(static_cast<double>(yf[i * n + j]) - ref);
            // fp32 accumulation of exact fp16 products, then one fp32 add and one fp32 multiply.
            const double tol = 2.0 * k * std::ldexp(1.0, -24) * mag + 4.0 * std::ldexp(1.0, -24) * std::fabs(pre) + 1e-30;
            if (err > maxErr) maxErr = err;
            if (err > tol) {
                if (bad < 5) std::printf("m%u n%u k%u: Y[%u,%u] = %.8g, expected %.8g\n", m, n, k, i, j, yf[i * n + j], ref);
                bad++;
            }
        }
    }
    // What each AIV saw: GetBlockIdx() = block * GetSubBlockNum() + GetSubBlockIdx(), ASCEND_IS_AIV.
    for (uint32_t v = 0; v < blockDim * aivs; v++) {
        const int32_t *e = idv + v * 4;
        if (e[0] != static_cast<int32_t>(v) || e[1] != static_cast<int32_t>(v % aivs) ||
            e[2] != static_cast<int32_t>(aivs) || e[3] != 1) {
            std::printf("AIV %u saw GetBlockIdx %d, GetSubBlockIdx %d, GetSubBlockNum %d, ASCEND_IS_AIV %d\n", v,
                        e[0], e[1], e[2], e[3]);
            bad++;
        }
    }
    if (negatives == 0 || negatives == static_cast<int>(m * n)) {
        std::printf("the inputs do not exercise both sides of the leaky ReLU\n");
        bad++;
    }
    std::printf("mix_matmul_leaky_relu (%s) %ux%ux%u on %u blocks x (1 AIC + %u AIV): max abs error %.3g, "
                "mismatches %d\n",
                flags ? "CrossCoreSetFlag" : "SyncAll<false>", m, n, k, blockDim, aivs, maxErr, bad);
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)bias);
    AscendC::GmFree((void *)ws);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)ids);
    return bad;
}

int main()
{
    int bad = 0;
    bad += RunCase(true, 128, 96, 128);   // aligned: 2 blocks, 2 K tiles
    bad += RunCase(true, 100, 136, 45);   // unaligned M (a 36-row band, 18 rows an AIV), N tail, K
    bad += RunCase(false, 77, 200, 70);   // __mix__(1, 1) + SyncAll<false>, unaligned
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
