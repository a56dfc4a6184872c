// C[M, N] (float) = A[M, K] (half) x B[K, N] (half) with the basic cube API: GM -> L1 with Nd2Nz, LoadData
// to L0A (Zz) and L0B (Zn, transposed fractals), Mmad accumulating over K tiles in L0C, Fixpipe NZ -> ND.
// Unaligned M, N and K; tiles spread over the blocks. Checked against a double-precision reference.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BASE_M = 128;
constexpr uint32_t BASE_N = 128;
constexpr uint32_t BASE_K = 64;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Align16(uint32_t a) { return CeilDiv(a, 16) * 16; }

class KernelMatmul {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
    {
        M = m;
        N = n;
        K = k;
        aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
        bGm.SetGlobalBuffer((__gm__ half *)b, K * N);
        cGm.SetGlobalBuffer((__gm__ float *)c, M * N);
        pipe.InitBuffer(inQueueA1, 1, BASE_M * BASE_K * sizeof(half));
        pipe.InitBuffer(inQueueB1, 1, BASE_K * BASE_N * sizeof(half));
        pipe.InitBuffer(inQueueA2, 1, BASE_M * BASE_K * sizeof(half));
        pipe.InitBuffer(inQueueB2, 1, BASE_K * BASE_N * sizeof(half));
        pipe.InitBuffer(outQueueCO1, 1, BASE_M * BASE_N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        const uint32_t tilesM = CeilDiv(M, BASE_M), tilesN = CeilDiv(N, BASE_N);
        for (uint32_t t = GetBlockIdx(); t < tilesM * tilesN; t += GetBlockNum()) {
            const uint32_t m0 = (t / tilesN) * BASE_M, n0 = (t % tilesN) * BASE_N;
            const uint32_t mLen = M - m0 < BASE_M ? M - m0 : BASE_M;
            const uint32_t nLen = N - n0 < BASE_N ? N - n0 : BASE_N;
            LocalTensor<float> c1 = outQueueCO1.AllocTensor<float>();
            for (uint32_t k0 = 0; k0 < K; k0 += BASE_K) {
                const uint32_t kLen = K - k0 < BASE_K ? K - k0 : BASE_K;
                CopyIn(m0, n0, k0, mLen, nLen, kLen);
                SplitA(mLen, kLen);
                SplitB(nLen, kLen);
                Compute(c1, mLen, nLen, kLen, k0 == 0);
            }
            outQueueCO1.EnQue(c1);
            CopyOut(m0, n0, mLen, nLen);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t m0, uint32_t n0, uint32_t k0, uint32_t mLen, uint32_t nLen, uint32_t kLen)
    {
        LocalTensor<half> a1 = inQueueA1.AllocTensor<half>();
        LocalTensor<half> b1 = inQueueB1.AllocTensor<half>();
        DataCopy(a1, aGm[m0 * K + k0], Nd2NzParams(1, mLen, kLen, 0, K, Align16(mLen), 1, 0));
        DataCopy(b1, bGm[k0 * N + n0], Nd2NzParams(1, kLen, nLen, 0, N, Align16(kLen), 1, 0));
        inQueueA1.EnQue(a1);
        inQueueB1.EnQue(b1);
    }
    __aicore__ inline void SplitA(uint32_t mLen, uint32_t kLen)
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
    __aicore__ inline void Compute(LocalTensor<float> &c1, uint32_t mLen, uint32_t nLen, uint32_t kLen, bool first)
    {
        LocalTensor<half> a2 = inQueueA2.DeQue<half>();
        LocalTensor<half> b2 = inQueueB2.DeQue<half>();
        MmadParams params;
        params.m = mLen;
        params.n = nLen;
        params.k = kLen;
        params.cmatrixInitVal = first;
        Mmad(c1, a2, b2, params);
        inQueueA2.FreeTensor(a2);
        inQueueB2.FreeTensor(b2);
    }
    __aicore__ inline void CopyOut(uint32_t m0, uint32_t n0, uint32_t mLen, uint32_t nLen)
    {
        LocalTensor<float> c1 = outQueueCO1.DeQue<float>();
        FixpipeParamsV220 params(nLen, mLen, Align16(mLen), N, false);
        Fixpipe(cGm[m0 * N + n0], c1, params);
        outQueueCO1.FreeTensor(c1);
    }

    TPipe pipe;
    TQue<TPosition::A1, 1> inQueueA1;
    TQue<TPosition::B1, 1> inQueueB1;
    TQue<TPosition::A2, 1> inQueueA2;
    TQue<TPosition::B2, 1> inQueueB2;
    TQue<TPosition::CO1, 1> outQueueCO1;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<float> cGm;
    uint32_t M, N, K;
};

extern "C" __global__ __aicore__ void cube_matmul_f16(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n,
                                                      uint32_t k)
{
    KernelMatmul op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}

static int RunCase(uint32_t m, uint32_t n, uint32_t k, uint32_t blockDim)
{
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(m * k * sizeof(half));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(k * n * sizeof(half));
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(m * n * sizeof(float));
    half *ah = reinterpret_cast<half *>(a);
    half *bh = reinterpret_cast<half *>(b);
    float *cf = reinterpret_cast<float *>(c);
    for (uint32_t i = 0; i < m * k; i++) ah[i] = half(static_cast<float>((i * 37 + 11) % 97) / 48.0f - 1.0f);
    for (uint32_t i = 0; i < k * n; i++) bh[i] = half(static_cast<float>((i * 53 + 5) % 89) / 44.0f - 1.0f);
    for (uint32_t i = 0; i < m * n; i++) cf[i] = -12345.0f;
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(cube_matmul_f16, blockDim, a, b, c, m, n, k);
    int bad = 0;
    double maxErr = 0.0;
    for (uint32_t i = 0; i < m; i++) {
        for (uint32_t j = 0; j < n; j++) {
            double ref = 0.0, mag = 0.0;
            for (uint32_t kk = 0; kk < k; kk++) {
                const double p = static_cast<double>(static_cast<float>(ah[i * k + kk])) *
                                 static_cast<double>(static_cast<float>(bh[kk * n + j]));
                ref += p;
                mag += std::fabs(p);
            }
            const double err = std::fabs(static_cast<double>(cf[i * n + j]) - ref);
            // fp32 accumulation of exact fp16 products: error bounded by k * 2^-24 * sum |p|.
            const double tol = 2.0 * k * std::ldexp(1.0, -24) * mag + 1e-30;
            if (err > maxErr) maxErr = err;
            if (err > tol) {
                if (bad < 5) std::printf("m%u n%u k%u: C[%u,%u] = %.8g, expected %.8g\n", m, n, k, i, j, cf[i * n + j], ref);
                bad++;
            }
        }
    }
    std::printf("cube_matmul_f16 %ux%ux%u on %u blocks: max abs error %.3g, mismatches %d\n", m, n, k, blockDim, maxErr, bad);
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)c);
    return bad;
}

int main()
{
    int bad = 0;
    bad += RunCase(256, 256, 192, 4);  // aligned, several K tiles, one tile per block
    bad += RunCase(77, 150, 45, 2);    // unaligned M, N and K
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
