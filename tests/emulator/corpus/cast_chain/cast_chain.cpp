// y = half(3 * float(x) + 0.5) computed in float: Cast half -> float (CAST_NONE), Muls, Adds, then Cast
// float -> half once with CAST_RINT and once with CAST_NONE (which rounds like RINT when precision is
// lost). The float intermediate is exact, so both outputs must equal the correctly rounded half,
// including the ties that 3x + 0.5 produces above 2048.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_LENGTH = 512;

class KernelCastChain {
public:
    __aicore__ inline KernelCastChain() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR yRint, GM_ADDR yNone, uint32_t blockLength)
    {
        tileNum = blockLength / TILE_LENGTH;
        xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * GetBlockIdx(), blockLength);
        yRintGm.SetGlobalBuffer((__gm__ half *)yRint + blockLength * GetBlockIdx(), blockLength);
        yNoneGm.SetGlobalBuffer((__gm__ half *)yNone + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueRint, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueNone, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(floatBuf, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
            DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
            inQueue.EnQue(xLocal);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueue.DeQue<half>();
        LocalTensor<float> tmp = floatBuf.Get<float>();
        LocalTensor<half> rintLocal = outQueueRint.AllocTensor<half>();
        LocalTensor<half> noneLocal = outQueueNone.AllocTensor<half>();
        Cast(tmp, xLocal, RoundMode::CAST_NONE, TILE_LENGTH);
        Muls(tmp, tmp, 3.0f, TILE_LENGTH);
        Adds(tmp, tmp, 0.5f, TILE_LENGTH);
        Cast(rintLocal, tmp, RoundMode::CAST_RINT, TILE_LENGTH);
        Cast(noneLocal, tmp, RoundMode::CAST_NONE, TILE_LENGTH);
        outQueueRint.EnQue(rintLocal);
        outQueueNone.EnQue(noneLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<half> rintLocal = outQueueRint.DeQue<half>();
        LocalTensor<half> noneLocal = outQueueNone.DeQue<half>();
        DataCopy(yRintGm[progress * TILE_LENGTH], rintLocal, TILE_LENGTH);
        DataCopy(yNoneGm[progress * TILE_LENGTH], noneLocal, TILE_LENGTH);
        outQueueRint.FreeTensor(rintLocal);
        outQueueNone.FreeTensor(noneLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueRint, outQueueNone;
    TBuf<TPosition::VECCALC> floatBuf;
    GlobalTensor<half> xGm, yRintGm, yNoneGm;
    uint32_t tileNum;
};

extern "C" __global__ __aicore__ void cast_chain(GM_ADDR x, GM_ADDR yRint, GM_ADDR yNone, uint32_t blockLength)
{
    KernelCastChain op;
    op.Init(x, yRint, yNone, blockLength);
    op.Process();
}

// Correctly rounded (to nearest, ties to even) binary16 value of a double in the normal half range.
static double RoundToHalf(double v)
{
    int exp2 = 0;
    (void)std::frexp(v, &exp2);
    int e = exp2 - 1 < -14 ? -14 : exp2 - 1;
    double q = std::ldexp(1.0, e - 10);
    double n = v / q;
    double k = std::floor(n);
    double frac = n - k;
    if (frac > 0.5 || (frac == 0.5 && std::fmod(k, 2.0) != 0.0)) k += 1.0;
    return k * q;
}

int main()
{
    constexpr uint32_t blockDim = 2;
    constexpr uint32_t blockLength = 4 * TILE_LENGTH;
    constexpr uint32_t total = blockDim * blockLength;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(total * sizeof(half));
    uint8_t *yRint = (uint8_t *)AscendC::GmAlloc(total * sizeof(half));
    uint8_t *yNone = (uint8_t *)AscendC::GmAlloc(total * sizeof(half));
    half *xh = reinterpret_cast<half *>(x);
    half *rh = reinterpret_cast<half *>(yRint);
    half *nh = reinterpret_cast<half *>(yNone);
    for (uint32_t i = 0; i < total; i++) {
        xh[i] = static_cast<half>(static_cast<float>((i * 17u) % 4001u) * 0.5f - 1000.0f);
        rh[i] = static_cast<half>(0.0f);
        nh[i] = static_cast<half>(0.0f);
    }

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(cast_chain, blockDim, x, yRint, yNone, blockLength);

    uint32_t bad = 0;
    uint32_t ties = 0;
    double maxAbsErr = 0.0;
    for (uint32_t i = 0; i < total; i++) {
        double exact = 3.0 * static_cast<double>(static_cast<float>(xh[i])) + 0.5;
        double ref = RoundToHalf(exact);
        if (std::fabs(exact) >= 2048.0 && std::fmod(std::fabs(exact), 2.0) == 1.0) ties++;
        double gotRint = static_cast<float>(rh[i]);
        double gotNone = static_cast<float>(nh[i]);
        double err = std::fmax(std::fabs(gotRint - exact), std::fabs(gotNone - exact));
        if (err > maxAbsErr) maxAbsErr = err;
        if (gotRint != ref || gotNone != ref) {
            if (bad < 10) {
                std::printf("index %u: 3*%.1f+0.5 = %.1f rounds to %.1f, CAST_RINT gave %.1f, CAST_NONE gave %.1f\n", i,
                            static_cast<float>(xh[i]), exact, ref, gotRint, gotNone);
            }
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)yRint);
    AscendC::GmFree((void *)yNone);
    std::printf("cast_chain: %u elements (%u ties), max abs error %.3g, mismatches %u\n", total, ties, maxAbsErr, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
