// The math library's activations with their temporary-buffer helpers: the host asks
// GetSigmoidMaxMinTmpSize / GetTanhMaxMinTmpSize / GetGeluMaxMinTmpSize for the minimum and passes it in
// the tiling struct; the kernel runs Sigmoid, Tanh, Gelu, FasterGelu (float, with sharedTmpBuffer) and
// Silu and Sigmoid (half, framework-reserved space). Checked against the library's formulas.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t N = 512;
constexpr uint32_t OUTS = 5;  // float outputs: sigmoid, tanh, gelu, faster gelu, half results cast back

struct ActivationTiling {
    uint32_t tmpBytes;  // the largest of the minimum temporary sizes
};

__global__ __aicore__ void activations_custom(GM_ADDR x, GM_ADDR out, ActivationTiling tiling)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf, halfBuf, halfOut;
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(outQ, 1, OUTS * N * sizeof(float));
    pipe.InitBuffer(tmpBuf, tiling.tmpBytes);
    pipe.InitBuffer(halfBuf, N * sizeof(half));
    pipe.InitBuffer(halfOut, N * sizeof(half));
    GlobalTensor<float> xGm, outGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    outGm.SetGlobalBuffer((__gm__ float *)out, OUTS * N);

    LocalTensor<float> xL = inQ.AllocTensor<float>();
    DataCopy(xL, xGm, N);
    inQ.EnQue(xL);
    xL = inQ.DeQue<float>();
    LocalTensor<float> o = outQ.AllocTensor<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    Sigmoid(o, xL, tmp, N);
    Tanh(o[N], xL, tmp, N);
    Gelu(o[2 * N], xL, tmp, N);
    FasterGelu(o[3 * N], xL, tmp, N);
    LocalTensor<half> xh = halfBuf.Get<half>();
    LocalTensor<half> yh = halfOut.Get<half>();
    Cast(xh, xL, RoundMode::CAST_NONE, N);
    Silu(yh, xh, N / 2);
    Sigmoid(yh[N / 2], xh[N / 2], N / 2);
    Cast(o[4 * N], yh, RoundMode::CAST_NONE, N);
    outQ.EnQue(o);
    inQ.FreeTensor(xL);
    o = outQ.DeQue<float>();
    DataCopy(outGm, o, OUTS * N);
    outQ.FreeTensor(o);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(OUTS * N * sizeof(float));
    float *xf = reinterpret_cast<float *>(x);
    float *of = reinterpret_cast<float *>(out);
    for (uint32_t i = 0; i < N; i++) xf[i] = static_cast<float>(static_cast<int>(i % 97u) - 48) / 8.0f;

    const ge::Shape shape(std::vector<int64_t>{N});
    uint32_t maxSize = 0, minSize = 0, tmpBytes = 0;
    AscendC::GetSigmoidMaxMinTmpSize(shape, sizeof(float), false, maxSize, minSize);
    tmpBytes = minSize > tmpBytes ? minSize : tmpBytes;
    AscendC::GetTanhMaxMinTmpSize(shape, sizeof(float), false, maxSize, minSize);
    tmpBytes = minSize > tmpBytes ? minSize : tmpBytes;
    AscendC::GetGeluMaxMinTmpSize(shape, sizeof(float), maxSize, minSize);
    tmpBytes = minSize > tmpBytes ? minSize : tmpBytes;
    ActivationTiling tiling{tmpBytes};

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(activations_custom, 1, x, out, tiling);

    uint32_t bad = 0;
    for (uint32_t i = 0; i < N; i++) {
        const double v = xf[i];
        const double sig = 1.0 / (1.0 + std::exp(-v));
        const double gelu = 0.5 * v * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
        const double fgelu = v / (1.0 + std::exp(-1.702 * v));
        const double h = static_cast<float>(half(xf[i]));
        const double halfRef = i < N / 2 ? h / (1.0 + std::exp(-h)) : 1.0 / (1.0 + std::exp(-h));
        const double refs[OUTS] = {sig, std::tanh(v), gelu, fgelu, halfRef};
        for (uint32_t k = 0; k < OUTS; k++) {
            const double tol = k == 4 ? 2e-3 * (1.0 + std::fabs(refs[k])) : 1e-5 * (1.0 + std::fabs(refs[k]));
            if (!(std::fabs(of[k * N + i] - refs[k]) <= tol)) {
                if (bad < 10) std::printf("output %u index %u: %g, expected %g\n", k, i, of[k * N + i], refs[k]);
                bad++;
            }
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)out);
    std::printf("activations: %u elements x %u outputs (tmp %u bytes), mismatches %u\n", N, OUTS, tmpBytes, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
