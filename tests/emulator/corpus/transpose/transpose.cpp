// Transpose: the 16 x 16 half block (in place as well as into another buffer) and the enhanced form's
// [N,C,H,W] -> [N,H,W,C] and back on float, each with a sharedTmpBuffer of the size the API reference's
// table asks for. Checked against a host reference.
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t SIDE = 16;
constexpr uint32_t NB = SIDE * SIDE;
constexpr uint16_t NN = 2, CC = 3, HH = 2, WW = 4;  // H * W * sizeof(float) = 32 bytes
constexpr uint32_t NF = NN * CC * HH * WW;
// (2C + 1) tiles of 16 x 8 floats: the larger of the two conversions' minimum.
constexpr uint32_t TMP_BYTES = (2 * CC + 1) * 16 * 8 * sizeof(float);

__global__ __aicore__ void transpose_custom(GM_ADDR xh, GM_ADDR xf, GM_ADDR outh, GM_ADDR outf)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQH, inQF;
    TQue<QuePosition::VECOUT, 1> outQH, outQF;
    TBuf<TPosition::VECCALC> tmpBuf, nhwcBuf;
    pipe.InitBuffer(inQH, 1, NB * sizeof(half));
    pipe.InitBuffer(inQF, 1, NF * sizeof(float));
    pipe.InitBuffer(outQH, 1, 2 * NB * sizeof(half));
    pipe.InitBuffer(outQF, 1, 2 * NF * sizeof(float));
    pipe.InitBuffer(tmpBuf, TMP_BYTES);
    pipe.InitBuffer(nhwcBuf, NF * sizeof(float));
    GlobalTensor<half> xhGm, outhGm;
    GlobalTensor<float> xfGm, outfGm;
    xhGm.SetGlobalBuffer((__gm__ half *)xh, NB);
    xfGm.SetGlobalBuffer((__gm__ float *)xf, NF);
    outhGm.SetGlobalBuffer((__gm__ half *)outh, 2 * NB);
    outfGm.SetGlobalBuffer((__gm__ float *)outf, 2 * NF);

    LocalTensor<half> h = inQH.AllocTensor<half>();
    LocalTensor<float> f = inQF.AllocTensor<float>();
    DataCopy(h, xhGm, NB);
    DataCopy(f, xfGm, NF);
    inQH.EnQue(h);
    inQF.EnQue(f);
    h = inQH.DeQue<half>();
    f = inQF.DeQue<float>();

    LocalTensor<half> oh = outQH.AllocTensor<half>();
    Transpose(oh, h);
    DataCopy(oh[NB], h, NB);
    PipeBarrier<PIPE_V>();
    Transpose(oh[NB], oh[NB]);  // in place
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    LocalTensor<float> nhwc = nhwcBuf.Get<float>();
    LocalTensor<float> of = outQF.AllocTensor<float>();
    Transpose(nhwc, f, tmp, TransposeParamsExt(NN, CC, HH, WW, TransposeType::TRANSPOSE_NCHW2NHWC));
    DataCopy(of, nhwc, NF);
    PipeBarrier<PIPE_V>();
    Transpose(of[NF], nhwc, tmp, TransposeParamsExt(NN, CC, HH, WW, TransposeType::TRANSPOSE_NHWC2NCHW));
    outQH.EnQue(oh);
    outQF.EnQue(of);
    inQH.FreeTensor(h);
    inQF.FreeTensor(f);
    oh = outQH.DeQue<half>();
    of = outQF.DeQue<float>();
    DataCopy(outhGm, oh, 2 * NB);
    DataCopy(outfGm, of, 2 * NF);
    outQH.FreeTensor(oh);
    outQF.FreeTensor(of);
}

int main()
{
    uint8_t *xh = (uint8_t *)AscendC::GmAlloc(NB * sizeof(half));
    uint8_t *xf = (uint8_t *)AscendC::GmAlloc(NF * sizeof(float));
    uint8_t *outh = (uint8_t *)AscendC::GmAlloc(2 * NB * sizeof(half));
    uint8_t *outf = (uint8_t *)AscendC::GmAlloc(2 * NF * sizeof(float));
    half *xhh = reinterpret_cast<half *>(xh);
    float *xff = reinterpret_cast<float *>(xf);
    for (uint32_t i = 0; i < NB; i++) xhh[i] = half(static_cast<float>(i));  // exact in half
    for (uint32_t i = 0; i < NF; i++) xff[i] = static_cast<float>(i) * 1.5f - 4.0f;

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(transpose_custom, 1, xh, xf, outh, outf);

    const half *oh = reinterpret_cast<const half *>(outh);
    const float *of = reinterpret_cast<const float *>(outf);
    uint32_t bad = 0;
    for (uint32_t r = 0; r < SIDE; r++)
        for (uint32_t c = 0; c < SIDE; c++)
            for (uint32_t part = 0; part < 2; part++) {
                const float got = static_cast<float>(oh[part * NB + r * SIDE + c]);
                const float want = static_cast<float>(xhh[c * SIDE + r]);
                if (got != want) {
                    if (bad < 10) std::printf("block %u [%u][%u] = %g, expected %g\n", part, r, c, got, want);
                    bad++;
                }
            }
    for (uint32_t n = 0; n < NN; n++)
        for (uint32_t c = 0; c < CC; c++)
            for (uint32_t s = 0; s < HH * WW; s++) {
                const float v = xff[(n * CC + c) * HH * WW + s];
                const float toNhwc = of[(n * HH * WW + s) * CC + c];
                const float back = of[NF + (n * CC + c) * HH * WW + s];
                if (toNhwc != v || back != v) {
                    if (bad < 10) std::printf("n%u c%u s%u: nhwc %g, back %g, expected %g\n", n, c, s, toNhwc, back, v);
                    bad++;
                }
            }
    AscendC::GmFree((void *)xh);
    AscendC::GmFree((void *)xf);
    AscendC::GmFree((void *)outh);
    AscendC::GmFree((void *)outf);
    std::printf("transpose: mismatches %u\n", bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
