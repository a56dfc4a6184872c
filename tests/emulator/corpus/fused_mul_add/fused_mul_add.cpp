// Fused multiply-adds that read their destination: FusedMulAdd (dst = src0 * dst + src1) in count form
// on half, MulAddDst (dst = src0 * src1 + dst) in continuous-mask form on float and in bit-mask form on
// float (even lanes only; the others keep their value). Checked against a host reference.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t N = 512;

__global__ __aicore__ void fused_mul_add_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR outH, GM_ADDR outF)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inA, inB, inC;
    TQue<QuePosition::VECOUT, 1> outQH, outQF;
    TBuf<TPosition::VECCALC> fa, fb;
    pipe.InitBuffer(inA, 1, N * sizeof(half));
    pipe.InitBuffer(inB, 1, N * sizeof(half));
    pipe.InitBuffer(inC, 1, N * sizeof(half));
    pipe.InitBuffer(outQH, 1, N * sizeof(half));
    pipe.InitBuffer(outQF, 1, N * sizeof(float));
    pipe.InitBuffer(fa, N * sizeof(float));
    pipe.InitBuffer(fb, N * sizeof(float));
    GlobalTensor<half> aGm, bGm, cGm, oHGm;
    GlobalTensor<float> oFGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, N);
    bGm.SetGlobalBuffer((__gm__ half *)b, N);
    cGm.SetGlobalBuffer((__gm__ half *)c, N);
    oHGm.SetGlobalBuffer((__gm__ half *)outH, N);
    oFGm.SetGlobalBuffer((__gm__ float *)outF, N);

    LocalTensor<half> aL = inA.AllocTensor<half>();
    LocalTensor<half> bL = inB.AllocTensor<half>();
    LocalTensor<half> cL = inC.AllocTensor<half>();
    DataCopy(aL, aGm, N);
    DataCopy(bL, bGm, N);
    DataCopy(cL, cGm, N);
    inA.EnQue(aL);
    inB.EnQue(bL);
    inC.EnQue(cL);
    aL = inA.DeQue<half>();
    bL = inB.DeQue<half>();
    cL = inC.DeQue<half>();

    LocalTensor<half> oH = outQH.AllocTensor<half>();
    DataCopy(oH, cL, N);              // dst starts as c
    FusedMulAdd(oH, aL, bL, N);       // oH = a * c + b

    LocalTensor<float> af = fa.Get<float>();
    LocalTensor<float> bf = fb.Get<float>();
    LocalTensor<float> oF = outQF.AllocTensor<float>();
    Cast(af, aL, RoundMode::CAST_NONE, N);
    Cast(bf, bL, RoundMode::CAST_NONE, N);
    Cast(oF, cL, RoundMode::CAST_NONE, N);  // dst starts as c
    // First half: all 64 lanes of 4 repeats; second half: only the even lanes (bit mask).
    MulAddDst(oF, af, bf, 64, 4, {1, 1, 1, 8, 8, 8});
    uint64_t even[2] = {0x5555555555555555ull, 0};
    MulAddDst(oF[N / 2], af[N / 2], bf[N / 2], even, 4, {1, 1, 1, 8, 8, 8});
    outQH.EnQue(oH);
    outQF.EnQue(oF);
    inA.FreeTensor(aL);
    inB.FreeTensor(bL);
    inC.FreeTensor(cL);
    oH = outQH.DeQue<half>();
    oF = outQF.DeQue<float>();
    DataCopy(oHGm, oH, N);
    DataCopy(oFGm, oF, N);
    outQH.FreeTensor(oH);
    outQF.FreeTensor(oF);
}

int main()
{
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(N * sizeof(half));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(N * sizeof(half));
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(N * sizeof(half));
    uint8_t *outH = (uint8_t *)AscendC::GmAlloc(N * sizeof(half));
    uint8_t *outF = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    half *ah = reinterpret_cast<half *>(a);
    half *bh = reinterpret_cast<half *>(b);
    half *ch = reinterpret_cast<half *>(c);
    half *oh = reinterpret_cast<half *>(outH);
    float *of = reinterpret_cast<float *>(outF);
    for (uint32_t i = 0; i < N; i++) {
        ah[i] = half(static_cast<float>((i * 5u) % 17u) * 0.25f - 2.0f);
        bh[i] = half(static_cast<float>((i * 3u) % 13u) * 0.5f - 3.0f);
        ch[i] = half(static_cast<float>((i * 7u) % 11u) * 0.125f - 0.5f);
    }

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(fused_mul_add_custom, 1, a, b, c, outH, outF);

    uint32_t bad = 0;
    for (uint32_t i = 0; i < N; i++) {
        const float av = static_cast<float>(ah[i]), bv = static_cast<float>(bh[i]), cv = static_cast<float>(ch[i]);
        const float refH = static_cast<float>(half(av * cv + bv));
        const bool on = i < N / 2 || i % 2 == 0;
        const float refF = on ? av * bv + cv : cv;
        if (static_cast<float>(oh[i]) != refH || !(std::fabs(of[i] - refF) <= 1e-6f)) {
            if (bad < 10)
                std::printf("index %u: half %g (expected %g) float %g (expected %g)\n", i, static_cast<float>(oh[i]),
                            refH, of[i], refF);
            bad++;
        }
    }
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)c);
    AscendC::GmFree((void *)outH);
    AscendC::GmFree((void *)outF);
    std::printf("fused_mul_add: %u elements, mismatches %u\n", N, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
