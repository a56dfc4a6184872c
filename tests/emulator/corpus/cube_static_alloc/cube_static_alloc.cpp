// Static tensor programming on the cube (no TPipe/TQue): LocalMemAllocator<Hardware::L1/L0A/L0B/L0C/BIAS>
// hands out every cube buffer, and SetFlag/WaitFlag order the pipes by hand. C[M, N] (half) =
// A[M, K] (half) x B[K, N] (half) + bias[N] (float): GM -> L1 with Nd2Nz, L1 -> L0A/L0B with LoadData,
// bias L1 (C1) -> bias table (C2), Mmad accumulating over K tiles, Fixpipe NZ -> ND with
// QuantMode_t::F322F16 named unqualified (as the devkit samples write it). Output tiles spread over the
// blocks; checked against a double-precision reference. Also checks GetCurAddr after each Alloc.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

constexpr uint32_t BASE_M = 128;
constexpr uint32_t BASE_N = 128;
constexpr uint32_t BASE_K = 64;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Align16(uint32_t a) { return CeilDiv(a, 16) * 16; }

// Offsets GetCurAddr must report after the allocations below, or 0 when all are right.
__aicore__ inline uint32_t AllocatorAddressErrors(uint32_t l1, uint32_t l0a, uint32_t l0b, uint32_t l0c, uint32_t bt)
{
    uint32_t errors = 0;
    errors += l1 != (BASE_M * BASE_K + BASE_K * BASE_N) * sizeof(half) + BASE_N * sizeof(float) ? 1 : 0;
    errors += l0a != BASE_M * BASE_K * sizeof(half) ? 1 : 0;
    errors += l0b != BASE_K * BASE_N * sizeof(half) ? 1 : 0;
    errors += l0c != BASE_M * BASE_N * sizeof(float) ? 1 : 0;
    errors += bt != BASE_N * sizeof(float) ? 1 : 0;
    return errors;
}

extern "C" __global__ __aicore__ void cube_static_alloc(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR err,
                                                        uint32_t M, uint32_t N, uint32_t K)
{
    AscendC::GlobalTensor<half> aGm, bGm, cGm;
    AscendC::GlobalTensor<float> biasGm;
    AscendC::GlobalTensor<uint32_t> errGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half *)b, K * N);
    biasGm.SetGlobalBuffer((__gm__ float *)bias, N);
    cGm.SetGlobalBuffer((__gm__ half *)c, M * N);
    errGm.SetGlobalBuffer((__gm__ uint32_t *)err, 8 * AscendC::GetBlockNum());

    AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1Allocator;
    AscendC::LocalMemAllocator<AscendC::Hardware::L0A> l0aAllocator;
    AscendC::LocalMemAllocator<AscendC::Hardware::L0B> l0bAllocator;
    AscendC::LocalMemAllocator<AscendC::Hardware::L0C> l0cAllocator;
    AscendC::LocalMemAllocator<AscendC::Hardware::BIAS> biasAllocator;
    AscendC::LocalTensor<half> a1 = l1Allocator.Alloc<half>(BASE_M * BASE_K);
    AscendC::LocalTensor<half> b1 = l1Allocator.Alloc<AscendC::TPosition::B1, half, BASE_K * BASE_N>();
    AscendC::LocalTensor<float> bias1 = l1Allocator.Alloc<AscendC::TPosition::C1, float>(BASE_N);
    AscendC::LocalTensor<half> a2 = l0aAllocator.Alloc<half, BASE_M * BASE_K>();
    AscendC::LocalTensor<half> b2 = l0bAllocator.Alloc<half>(BASE_K * BASE_N);
    AscendC::LocalTensor<float> c1 = l0cAllocator.Alloc<AscendC::TPosition::CO1, float>(BASE_M * BASE_N);
    AscendC::LocalTensor<float> bias2 = biasAllocator.Alloc<float>(BASE_N);
    errGm.SetValue(AscendC::GetBlockIdx() * 8,
                   AllocatorAddressErrors(l1Allocator.GetCurAddr(), l0aAllocator.GetCurAddr(),
                                          l0bAllocator.GetCurAddr(), l0cAllocator.GetCurAddr(),
                                          biasAllocator.GetCurAddr()));

    const uint32_t tilesM = CeilDiv(M, BASE_M), tilesN = CeilDiv(N, BASE_N);
    for (uint32_t t = AscendC::GetBlockIdx(); t < tilesM * tilesN; t += AscendC::GetBlockNum()) {
        const uint32_t m0 = (t / tilesN) * BASE_M, n0 = (t % tilesN) * BASE_N;
        const uint32_t mLen = M - m0 < BASE_M ? M - m0 : BASE_M;
        const uint32_t nLen = N - n0 < BASE_N ? N - n0 : BASE_N;
        const uint32_t mBlocks = CeilDiv(mLen, 16), nBlocks = CeilDiv(nLen, 16);
        for (uint32_t k0 = 0; k0 < K; k0 += BASE_K) {
            const uint32_t kLen = K - k0 < BASE_K ? K - k0 : BASE_K;
            const uint32_t kBlocks = CeilDiv(kLen, 16);
            const bool first = k0 == 0;
            AscendC::DataCopy(a1, aGm[m0 * K + k0], AscendC::Nd2NzParams(1, mLen, kLen, 0, K, Align16(mLen), 1, 0));
            AscendC::DataCopy(b1, bGm[k0 * N + n0], AscendC::Nd2NzParams(1, kLen, nLen, 0, N, Align16(kLen), 1, 0));
            if (first) AscendC::DataCopy(bias1, biasGm[n0], nLen);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
            for (uint32_t i = 0; i < mBlocks; i++) {
                AscendC::LoadData(a2[i * kBlocks * 256], a1, AscendC::LoadData2DParams(i, kBlocks, mBlocks, 0, 0, false, 0));
            }
            for (uint32_t i = 0; i < kBlocks; i++) {
                AscendC::LoadData(b2[i * nBlocks * 256], b1, AscendC::LoadData2DParams(i, nBlocks, kBlocks, 0, 0, true, 0));
            }
            if (first) AscendC::DataCopy(bias2, bias1, nLen);
            // L1 is refilled by the next K tile's MTE2 copy only after MTE1 has read it.
            AscendC::SetFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0);
            AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
            AscendC::MmadParams params;
            params.m = mLen;
            params.n = nLen;
            params.k = kLen;
            if (first) {
                AscendC::Mmad(c1, a2, b2, bias2, params);
            } else {
                params.cmatrixInitVal = false;
                AscendC::Mmad(c1, a2, b2, params);
            }
            // L0A/L0B are refilled by the next K tile's LoadData only after the Mmad has read them.
            AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
        }
        AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
        AscendC::Fixpipe(cGm[m0 * N + n0], c1,
                         AscendC::FixpipeParamsV220{static_cast<uint16_t>(nLen), static_cast<uint16_t>(mLen),
                                                    static_cast<uint16_t>(Align16(mLen)), N, false,
                                                    QuantMode_t::F322F16, 0, 1, 0, 0, 0});
        // The next tile's Mmad overwrites L0C only after Fixpipe has read it.
        AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);
    }
}

static int RunCase(uint32_t m, uint32_t n, uint32_t k, uint32_t blockDim)
{
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(m * k * sizeof(half));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(k * n * sizeof(half));
    uint8_t *bias = (uint8_t *)AscendC::GmAlloc(n * sizeof(float));
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(m * n * sizeof(half));
    uint8_t *err = (uint8_t *)AscendC::GmAlloc(8 * blockDim * sizeof(uint32_t));
    half *ah = reinterpret_cast<half *>(a);
    half *bh = reinterpret_cast<half *>(b);
    float *bf = reinterpret_cast<float *>(bias);
    half *ch = reinterpret_cast<half *>(c);
    uint32_t *eu = reinterpret_cast<uint32_t *>(err);
    for (uint32_t i = 0; i < m * k; i++) ah[i] = half(static_cast<float>((i * 37 + 11) % 97) / 48.0f - 1.0f);
    for (uint32_t i = 0; i < k * n; i++) bh[i] = half(static_cast<float>((i * 53 + 5) % 89) / 44.0f - 1.0f);
    for (uint32_t i = 0; i < n; i++) bf[i] = static_cast<float>(static_cast<int>(i % 13) - 6) * 0.25f;
    for (uint32_t i = 0; i < m * n; i++) ch[i] = half(-1000.0f);
    for (uint32_t i = 0; i < 8 * blockDim; i++) eu[i] = 99;
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(cube_static_alloc, blockDim, a, b, bias, c, err, m, n, k);
    int bad = 0;
    for (uint32_t blk = 0; blk < blockDim; blk++) {
        if (eu[blk * 8] != 0) {
            std::printf("block %u: %u GetCurAddr offsets differ from the expected ones\n", blk, eu[blk * 8]);
            bad++;
        }
    }
    double maxErr = 0.0;
    for (uint32_t i = 0; i < m; i++) {
        for (uint32_t j = 0; j < n; j++) {
            double ref = bf[j], mag = std::fabs(bf[j]);
            for (uint32_t kk = 0; kk < k; kk++) {
                const double p = static_cast<double>(static_cast<float>(ah[i * k + kk])) *
                                 static_cast<double>(static_cast<float>(bh[kk * n + j]));
                ref += p;
                mag += std::fabs(p);
            }
            const double got = static_cast<double>(static_cast<float>(ch[i * n + j]));
            const double err2 = std::fabs(got - ref);
            // fp32 accumulation (k * 2^-24 * sum |p|), then one rounding to half (2^-11 relative).
            const double tol = 2.0 * k * std::ldexp(1.0, -24) * mag + std::ldexp(1.0, -11) * std::fabs(ref) + 1e-7;
            if (err2 > maxErr) maxErr = err2;
            if (err2 > tol) {
                if (bad < 5) std::printf("m%u n%u k%u: C[%u,%u] = %.8g, expected %.8g\n", m, n, k, i, j, got, ref);
                bad++;
            }
        }
    }
    std::printf("cube_static_alloc %ux%ux%u on %u blocks: max abs error %.3g, mismatches %d\n", m, n, k, blockDim,
                maxErr, bad);
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)bias);
    AscendC::GmFree((void *)c);
    AscendC::GmFree((void *)err);
    return bad;
}

int main()
{
    int bad = 0;
    bad += RunCase(256, 256, 192, 4);  // aligned, three K tiles, one output tile per block
    bad += RunCase(77, 144, 45, 2);    // unaligned M and K, a partial N tile
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
