// Split-K matmul: C[M, N] (float) = A[M, K] x B[K, N] (half), every block computes the partial product of
// its own K chunk and adds it into the same C with Fixpipe under SetAtomicAdd<float> (the FIX pipe
// accumulates into GM like a UB->GM copy, docs/emulator.md "Cube unit"). The atomic writes of different
// blocks to the same bytes are not an overlap. C starts at a non-zero value, which the sum must keep.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t M = 48, N = 80, K_CHUNK = 64;  // 16-aligned tile, one K chunk per block
constexpr uint32_t BLOCKS = 4, K = K_CHUNK * BLOCKS;
constexpr float C_START = 0.5f;

extern "C" __global__ __aicore__ void cube_split_k_atomic(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa1, 1, M * K_CHUNK * sizeof(half));
    pipe.InitBuffer(qb1, 1, K_CHUNK * N * sizeof(half));
    pipe.InitBuffer(qa2, 1, M * K_CHUNK * sizeof(half));
    pipe.InitBuffer(qb2, 1, K_CHUNK * N * sizeof(half));
    pipe.InitBuffer(qc, 1, M * N * sizeof(float));
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    const uint32_t k0 = GetBlockIdx() * K_CHUNK;
    aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half *)b, K * N);
    cGm.SetGlobalBuffer((__gm__ float *)c, M * N);

    LocalTensor<half> a1 = qa1.AllocTensor<half>();
    LocalTensor<half> b1 = qb1.AllocTensor<half>();
    DataCopy(a1, aGm[k0], Nd2NzParams(1, M, K_CHUNK, 0, K, M, 1, 0));
    DataCopy(b1, bGm[k0 * N], Nd2NzParams(1, K_CHUNK, N, 0, N, K_CHUNK, 1, 0));
    qa1.EnQue(a1);
    qb1.EnQue(b1);
    a1 = qa1.DeQue<half>();
    b1 = qb1.DeQue<half>();
    LocalTensor<half> a2 = qa2.AllocTensor<half>();
    LocalTensor<half> b2 = qb2.AllocTensor<half>();
    const uint32_t mBlocks = M / 16, nBlocks = N / 16, kBlocks = K_CHUNK / 16;
    for (uint32_t i = 0; i < mBlocks; i++)
        LoadData(a2[i * kBlocks * 256], a1, LoadData2DParams(i, kBlocks, mBlocks, 0, 0, false, 0));
    for (uint32_t i = 0; i < kBlocks; i++)
        LoadData(b2[i * nBlocks * 256], b1, LoadData2DParams(i, nBlocks, kBlocks, 0, 0, true, 0));
    qa2.EnQue(a2);
    qb2.EnQue(b2);
    qa1.FreeTensor(a1);
    qb1.FreeTensor(b1);
    a2 = qa2.DeQue<half>();
    b2 = qb2.DeQue<half>();
    LocalTensor<float> c1 = qc.AllocTensor<float>();
    MmadParams mm;
    mm.m = M;
    mm.n = N;
    mm.k = K_CHUNK;
    mm.cmatrixInitVal = true;
    Mmad(c1, a2, b2, mm);
    qa2.FreeTensor(a2);
    qb2.FreeTensor(b2);
    qc.EnQue(c1);
    c1 = qc.DeQue<float>();
    SetAtomicAdd<float>();
    Fixpipe(cGm, c1, FixpipeParamsV220(N, M, M, N, false));
    SetAtomicNone();
    qc.FreeTensor(c1);
}

int main()
{
    half *a = (half *)AscendC::GmAlloc(M * K * sizeof(half));
    half *b = (half *)AscendC::GmAlloc(K * N * sizeof(half));
    float *c = (float *)AscendC::GmAlloc(M * N * sizeof(float));
    for (uint32_t i = 0; i < M * K; i++) a[i] = half(static_cast<float>((i * 29 + 3) % 83) / 41.0f - 1.0f);
    for (uint32_t i = 0; i < K * N; i++) b[i] = half(static_cast<float>((i * 61 + 7) % 79) / 39.0f - 1.0f);
    for (uint32_t i = 0; i < M * N; i++) c[i] = C_START;
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(cube_split_k_atomic, BLOCKS, (uint8_t *)a, (uint8_t *)b, (uint8_t *)c);
    int bad = 0;
    for (uint32_t i = 0; i < M; i++)
        for (uint32_t j = 0; j < N; j++) {
            double ref = C_START, mag = C_START;
            for (uint32_t k = 0; k < K; k++) {
                const double p = static_cast<double>(static_cast<float>(a[i * K + k])) *
                                 static_cast<double>(static_cast<float>(b[k * N + j]));
                ref += p;
                mag += std::fabs(p);
            }
            // fp32 sums of exact fp16 products, in chunks and then across blocks in any order.
            const double tol = 2.0 * (K + BLOCKS) * std::ldexp(1.0, -24) * mag;
            if (std::fabs(c[i * N + j] - ref) > tol && bad++ < 5)
                std::printf("C[%u,%u] = %.8g, expected %.8g\n", i, j, c[i * N + j], ref);
        }
    std::printf("cube_split_k_atomic %ux%ux%u on %u blocks: mismatches %d\n", M, N, K, BLOCKS, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    AscendC::GmFree(a);
    AscendC::GmFree(b);
    AscendC::GmFree(c);
    return bad == 0 ? 0 : 1;
}
