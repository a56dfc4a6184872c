// Scatter on the 310P (the API reference lists it for the inference parts only): the count form
// reverses 128 halves through byte offsets from the destination's start, the continuous-mask form
// scatters the first 32 of 64 floats of each of two repeats to the even slots of a filled tile (the
// source repeats 8 blocks apart, offsets one per lane). Checked against a host reference.
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t NH = 128;  // halves reversed
constexpr uint32_t NF = 128;  // floats in the source (2 repeats of 64)
constexpr uint32_t PICK = 32; // lanes on per repeat
constexpr float FILL = -1.0f;

__global__ __aicore__ void scatter_custom(GM_ADDR xh, GM_ADDR xf, GM_ADDR outh, GM_ADDR outf)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQH, inQF;
    TQue<QuePosition::VECOUT, 1> outQH, outQF;
    TBuf<TPosition::VECCALC> offH, offF;
    pipe.InitBuffer(inQH, 1, NH * sizeof(half));
    pipe.InitBuffer(inQF, 1, NF * sizeof(float));
    pipe.InitBuffer(outQH, 1, NH * sizeof(half));
    pipe.InitBuffer(outQF, 1, NF * sizeof(float));
    pipe.InitBuffer(offH, NH * sizeof(uint32_t));
    pipe.InitBuffer(offF, NF * sizeof(uint32_t));
    GlobalTensor<half> xhGm, outhGm;
    GlobalTensor<float> xfGm, outfGm;
    xhGm.SetGlobalBuffer((__gm__ half *)xh, NH);
    xfGm.SetGlobalBuffer((__gm__ float *)xf, NF);
    outhGm.SetGlobalBuffer((__gm__ half *)outh, NH);
    outfGm.SetGlobalBuffer((__gm__ float *)outf, NF);
    LocalTensor<half> h = inQH.AllocTensor<half>();
    LocalTensor<float> f = inQF.AllocTensor<float>();
    DataCopy(h, xhGm, NH);
    DataCopy(f, xfGm, NF);
    inQH.EnQue(h);
    inQF.EnQue(f);
    h = inQH.DeQue<half>();
    f = inQF.DeQue<float>();
    LocalTensor<uint32_t> oh = offH.Get<uint32_t>();
    LocalTensor<uint32_t> of = offF.Get<uint32_t>();
    for (uint32_t i = 0; i < NH; i++) oh.SetValue(i, (NH - 1 - i) * sizeof(half));
    for (uint32_t i = 0; i < NF; i++) of.SetValue(i, (i % 64 + (i / 64) * PICK) * 2 * sizeof(float));
    LocalTensor<half> dh = outQH.AllocTensor<half>();
    LocalTensor<float> df = outQF.AllocTensor<float>();
    Scatter(dh, h, oh, 0, NH);
    Duplicate(df, FILL, NF);
    Scatter(df, f, of, 0, (uint64_t)PICK, 2, 8);
    outQH.EnQue(dh);
    outQF.EnQue(df);
    inQH.FreeTensor(h);
    inQF.FreeTensor(f);
    dh = outQH.DeQue<half>();
    df = outQF.DeQue<float>();
    DataCopy(outhGm, dh, NH);
    DataCopy(outfGm, df, NF);
    outQH.FreeTensor(dh);
    outQF.FreeTensor(df);
}

int main()
{
    uint8_t *xh = (uint8_t *)AscendC::GmAlloc(NH * sizeof(half));
    uint8_t *xf = (uint8_t *)AscendC::GmAlloc(NF * sizeof(float));
    uint8_t *outh = (uint8_t *)AscendC::GmAlloc(NH * sizeof(half));
    uint8_t *outf = (uint8_t *)AscendC::GmAlloc(NF * sizeof(float));
    half *xhh = reinterpret_cast<half *>(xh);
    float *xff = reinterpret_cast<float *>(xf);
    for (uint32_t i = 0; i < NH; i++) xhh[i] = half(static_cast<float>(i));
    for (uint32_t i = 0; i < NF; i++) xff[i] = static_cast<float>(i) * 0.5f;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(scatter_custom, 1, xh, xf, outh, outf);
    const half *oh = reinterpret_cast<const half *>(outh);
    const float *of = reinterpret_cast<const float *>(outf);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < NH; i++)
        if (static_cast<float>(oh[i]) != static_cast<float>(xhh[NH - 1 - i])) bad++;
    for (uint32_t k = 0; k < NF; k++) {
        // dst slot 2j holds source lane j of repeat j / 32 (the first 32 lanes of each repeat).
        float want = FILL;
        if (k % 2 == 0) {
            const uint32_t j = k / 2, rep = j / PICK, lane = j % PICK;
            want = xff[rep * 64 + lane];
        }
        if (of[k] != want) {
            if (bad < 10) std::printf("outf[%u] = %g, expected %g\n", k, of[k], want);
            bad++;
        }
    }
    AscendC::GmFree((void *)xh);
    AscendC::GmFree((void *)xf);
    AscendC::GmFree((void *)outh);
    AscendC::GmFree((void *)outf);
    std::printf("scatter: mismatches %u\n", bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
