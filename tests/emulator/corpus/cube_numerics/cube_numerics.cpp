// The cube's accumulate-and-convert paths against a double-precision model, one single-tile kernel per
// path: half x half -> fp32 L0C + fp32 bias -> Fixpipe F322F16 + ReLU; bfloat16 -> F322BF16; float
// (K0 = 8) -> float; int8 x int8 -> int32 + int32 bias (exact). B comes transposed from GM (N x K), so the
// Nd2Nz copy already forms L0B's Zn fractals and one LoadData moves them; the bias goes GM -> L1 (C1) ->
// bias table (C2).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t M = 40;  // unaligned: 3 fractal rows
constexpr uint32_t N = 48;
constexpr uint32_t K = 96;

template <typename TIn, typename TAcc, typename TOut>
class CubeTile {
public:
    __aicore__ inline void Run(GM_ADDR a, GM_ADDR bt, GM_ADDR bias, GM_ADDR c, bool useBias, bool relu, QuantMode_t q)
    {
        constexpr uint32_t c0 = 32 / sizeof(TIn);
        const uint32_t mB = (M + 15) / 16, nB = (N + 15) / 16, kB = (K + c0 - 1) / c0;
        aGm.SetGlobalBuffer((__gm__ TIn *)a, M * K);
        bGm.SetGlobalBuffer((__gm__ TIn *)bt, N * K);
        biasGm.SetGlobalBuffer((__gm__ TAcc *)bias, N);
        cGm.SetGlobalBuffer((__gm__ TOut *)c, M * N);
        pipe.InitBuffer(qA1, 1, mB * 16 * kB * 32);
        pipe.InitBuffer(qB1, 1, nB * 16 * kB * 32);
        pipe.InitBuffer(qA2, 1, mB * 16 * kB * 32);
        pipe.InitBuffer(qB2, 1, nB * 16 * kB * 32);
        pipe.InitBuffer(qBias1, 1, N * sizeof(TAcc));
        pipe.InitBuffer(qBias2, 1, N * sizeof(TAcc));
        pipe.InitBuffer(qC, 1, mB * nB * 256 * sizeof(TAcc));

        LocalTensor<TIn> a1 = qA1.AllocTensor<TIn>();
        LocalTensor<TIn> b1 = qB1.AllocTensor<TIn>();
        DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, mB * 16, 1, 0));
        DataCopy(b1, bGm, Nd2NzParams(1, N, K, 0, K, nB * 16, 1, 0));
        qA1.EnQue(a1);
        qB1.EnQue(b1);
        a1 = qA1.DeQue<TIn>();
        LocalTensor<TIn> a2 = qA2.AllocTensor<TIn>();
        for (uint32_t i = 0; i < mB; i++) {
            LoadData(a2[i * kB * 16 * c0], a1, LoadData2DParams(i, kB, mB, 0, 0, false, 0));
        }
        qA2.EnQue(a2);
        qA1.FreeTensor(a1);
        b1 = qB1.DeQue<TIn>();
        LocalTensor<TIn> b2 = qB2.AllocTensor<TIn>();
        LoadData(b2, b1, LoadData2DParams(0, kB * nB, 1, 0, 0, false, 0));
        qB2.EnQue(b2);
        qB1.FreeTensor(b1);

        LocalTensor<TAcc> bias2;
        if (useBias) {
            LocalTensor<TAcc> bias1 = qBias1.AllocTensor<TAcc>();
            DataCopy(bias1, biasGm, N);
            qBias1.EnQue(bias1);
            bias1 = qBias1.DeQue<TAcc>();
            bias2 = qBias2.AllocTensor<TAcc>();
            DataCopy(bias2, bias1, N);
            qBias2.EnQue(bias2);
            qBias1.FreeTensor(bias1);
            bias2 = qBias2.DeQue<TAcc>();
        }
        a2 = qA2.DeQue<TIn>();
        b2 = qB2.DeQue<TIn>();
        LocalTensor<TAcc> cl = qC.AllocTensor<TAcc>();
        MmadParams mp;
        mp.m = M;
        mp.n = N;
        mp.k = K;
        if (useBias) {
            Mmad(cl, a2, b2, bias2, mp);
            qBias2.FreeTensor(bias2);
        } else {
            Mmad(cl, a2, b2, mp);
        }
        qA2.FreeTensor(a2);
        qB2.FreeTensor(b2);
        qC.EnQue(cl);
        cl = qC.DeQue<TAcc>();
        FixpipeParamsV220 fp(N, M, mB * 16, N, relu);
        fp.quantPre = q;
        Fixpipe(cGm, cl, fp);
        qC.FreeTensor(cl);
    }

private:
    TPipe pipe;
    TQue<TPosition::A1, 1> qA1;
    TQue<TPosition::B1, 1> qB1;
    TQue<TPosition::A2, 1> qA2;
    TQue<TPosition::B2, 1> qB2;
    TQue<TPosition::C1, 1> qBias1;
    TQue<TPosition::C2, 1> qBias2;
    TQue<TPosition::CO1, 1> qC;
    GlobalTensor<TIn> aGm, bGm;
    GlobalTensor<TAcc> biasGm;
    GlobalTensor<TOut> cGm;
};

extern "C" __global__ __aicore__ void mm_half_bias_relu(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c)
{
    CubeTile<half, float, half> op;
    op.Run(a, b, bias, c, true, true, QuantMode_t::F322F16);
}
extern "C" __global__ __aicore__ void mm_bf16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c)
{
    CubeTile<bfloat16_t, float, bfloat16_t> op;
    op.Run(a, b, bias, c, false, false, QuantMode_t::F322BF16);
}
extern "C" __global__ __aicore__ void mm_float(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c)
{
    CubeTile<float, float, float> op;
    op.Run(a, b, bias, c, true, false, QuantMode_t::NoQuant);
}
extern "C" __global__ __aicore__ void mm_int8(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c)
{
    CubeTile<int8_t, int32_t, int32_t> op;
    op.Run(a, b, bias, c, true, false, QuantMode_t::NoQuant);
}

template <typename T> double ToD(T v) { return static_cast<double>(static_cast<float>(v)); }
template <> double ToD<int8_t>(int8_t v) { return v; }
template <> double ToD<int32_t>(int32_t v) { return v; }

// One path: inputs from a fixed pattern, reference in double, then the device's conversion of the fp32
// (or int32) accumulator: the output is right when it equals the rounding of a value within the fp32
// accumulation bound of the exact sum.
template <typename TIn, typename TAcc, typename TOut>
int Check(const char *name, void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), bool useBias, bool relu)
{
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(M * K * sizeof(TIn));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(N * K * sizeof(TIn));
    uint8_t *bias = (uint8_t *)AscendC::GmAlloc(N * sizeof(TAcc));
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(M * N * sizeof(TOut));
    TIn *ai = reinterpret_cast<TIn *>(a);
    TIn *bi = reinterpret_cast<TIn *>(b);  // B transposed: bi[j * K + kk] = B[kk][j]
    TAcc *bs = reinterpret_cast<TAcc *>(bias);
    TOut *co = reinterpret_cast<TOut *>(c);
    const bool integer = std::is_same<TIn, int8_t>::value;
    for (uint32_t i = 0; i < M * K; i++)
        ai[i] = integer ? static_cast<TIn>(static_cast<int>((i * 37) % 255) - 127)
                        : static_cast<TIn>(static_cast<float>((i * 37 + 3) % 101) / 37.0f - 1.3f);
    for (uint32_t i = 0; i < N * K; i++)
        bi[i] = integer ? static_cast<TIn>(static_cast<int>((i * 91) % 255) - 128)
                        : static_cast<TIn>(static_cast<float>((i * 53 + 7) % 89) / 29.0f - 1.5f);
    for (uint32_t j = 0; j < N; j++) bs[j] = static_cast<TAcc>(integer ? (static_cast<int>(j) * 1001 - 20000) : (static_cast<float>(j) / 7.0f - 3.0f));
    std::memset(c, 0x7b, M * N * sizeof(TOut));
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(kernel, 1, a, b, bias, c);
    int bad = 0;
    for (uint32_t i = 0; i < M; i++) {
        for (uint32_t j = 0; j < N; j++) {
            double ref = useBias ? ToD(bs[j]) : 0.0, mag = std::fabs(ref);
            for (uint32_t kk = 0; kk < K; kk++) {
                const double p = ToD(ai[i * K + kk]) * ToD(bi[j * K + kk]);
                ref += p;
                mag += std::fabs(p);
            }
            if (relu && ref < 0) ref = 0;
            const double got = ToD(co[i * N + j]);
            bool ok;
            if (integer) {
                ok = got == ref;
            } else {
                const double accTol = 2.0 * (K + 1) * std::ldexp(1.0, -24) * mag;
                // The conversion rounds to nearest: the output may be either neighbour of ref +- accTol.
                const double lo = static_cast<double>(static_cast<float>(static_cast<TOut>(static_cast<float>(ref - accTol))));
                const double hi = static_cast<double>(static_cast<float>(static_cast<TOut>(static_cast<float>(ref + accTol))));
                ok = got >= lo && got <= hi;
            }
            if (!ok) {
                if (bad < 5) std::printf("%s: C[%u,%u] = %.9g, expected %.9g\n", name, i, j, got, ref);
                bad++;
            }
        }
    }
    std::printf("%s: %ux%ux%u, mismatches %d\n", name, M, N, K, bad);
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)bias);
    AscendC::GmFree((void *)c);
    return bad;
}

int main()
{
    int bad = 0;
    bad += Check<half, float, half>("half->fp32 + bias -> F322F16 + relu", mm_half_bias_relu, true, true);
    bad += Check<bfloat16_t, float, bfloat16_t>("bf16->fp32 -> F322BF16", mm_bf16, false, false);
    bad += Check<float, float, float>("float->fp32 + bias", mm_float, true, false);
    bad += Check<int8_t, int32_t, int32_t>("int8->int32 + bias", mm_int8, true, false);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
