// UB -> UB Copy and the DataCopyPad padding register: Copy picks the first 8 of every 64 int32 of an
// 18 x 64 tile in normal mode (mask 8, 18 repeats, dstRepeatSize 1) and again in Copy's own counter mode
// (144 elements in one repeat, srcStride 8 blocks: the counter counts per repeat there), and copies the
// lanes of a bit mask over a filled tile; SetPadValue sets the value DataCopyPad with isPad = false pads
// a 20-half row with, and isPad = true still uses its own paddingValue. Checked against a host reference.
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t ROWS = 18;
constexpr uint32_t COLS = 64;
constexpr uint32_t N = ROWS * COLS;
constexpr uint32_t PICK = ROWS * 8;        // int32 picked per scenario
constexpr uint32_t MASKED = 128;           // two repeats of 64 int32 under a bit mask
constexpr uint32_t ROW_H = 20;             // halves in the padded row
constexpr uint32_t OUT_I32 = 2 * PICK + MASKED;
constexpr uint64_t LANE_BITS = 0xF0F0F0F00F0F0F0Full;
constexpr int32_t FILL = -7;
constexpr float PAD_REG = 7.0f, PAD_OWN = 3.0f;

__global__ __aicore__ void copy_ub_pad_custom(GM_ADDR x, GM_ADDR xh, GM_ADDR out, GM_ADDR outh)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ, inQH;
    TQue<QuePosition::VECOUT, 1> outQ, outQH;
    pipe.InitBuffer(inQ, 1, N * sizeof(int32_t));
    pipe.InitBuffer(inQH, 1, 64 * sizeof(half));
    pipe.InitBuffer(outQ, 1, OUT_I32 * sizeof(int32_t));
    pipe.InitBuffer(outQH, 1, 64 * sizeof(half));
    GlobalTensor<int32_t> xGm, outGm;
    GlobalTensor<half> xhGm, outhGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, N);
    xhGm.SetGlobalBuffer((__gm__ half *)xh, ROW_H);
    outGm.SetGlobalBuffer((__gm__ int32_t *)out, OUT_I32);
    outhGm.SetGlobalBuffer((__gm__ half *)outh, 64);

    LocalTensor<int32_t> xLocal = inQ.AllocTensor<int32_t>();
    DataCopy(xLocal, xGm, N);
    LocalTensor<half> padded = inQH.AllocTensor<half>();
    SetPadValue(half(PAD_REG));
    DataCopyExtParams rowParams{1, ROW_H * sizeof(half), 0, 0, 0};
    DataCopyPadExtParams<half> regPad{false, 0, 12, half(0)};
    DataCopyPad(padded, xhGm, rowParams, regPad);  // halves 20..31 take the register's 7
    DataCopyPadExtParams<half> ownPad{true, 0, 12, half(PAD_OWN)};
    DataCopyPad(padded[32], xhGm, rowParams, ownPad);  // halves 52..63 take 3
    inQ.EnQue(xLocal);
    inQH.EnQue(padded);
    xLocal = inQ.DeQue<int32_t>();
    padded = inQH.DeQue<half>();

    LocalTensor<int32_t> o = outQ.AllocTensor<int32_t>();
    Copy(o, xLocal, 8, ROWS, {1, 1, 1, 8});
    SetMaskCount();
    SetVectorMask<int32_t, MaskMode::COUNTER>(PICK);
    Copy<int32_t, false>(o[PICK], xLocal, MASK_PLACEHOLDER, 1, {1, 8, 8, 8});
    SetMaskNorm();
    ResetMask();
    Duplicate(o[2 * PICK], FILL, MASKED);
    uint64_t lanes[2] = {LANE_BITS, 0};
    Copy(o[2 * PICK], xLocal, lanes, 2, {1, 1, 8, 8});
    LocalTensor<half> oh = outQH.AllocTensor<half>();
    Copy(oh, padded, 64, 1, {1, 1, 8, 8});
    outQ.EnQue(o);
    outQH.EnQue(oh);
    inQ.FreeTensor(xLocal);
    inQH.FreeTensor(padded);
    o = outQ.DeQue<int32_t>();
    oh = outQH.DeQue<half>();
    DataCopy(outGm, o, OUT_I32);
    DataCopy(outhGm, oh, 64);
    outQ.FreeTensor(o);
    outQH.FreeTensor(oh);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(int32_t));
    uint8_t *xh = (uint8_t *)AscendC::GmAlloc(ROW_H * sizeof(half));
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(OUT_I32 * sizeof(int32_t));
    uint8_t *outh = (uint8_t *)AscendC::GmAlloc(64 * sizeof(half));
    int32_t *xi = reinterpret_cast<int32_t *>(x);
    half *xhh = reinterpret_cast<half *>(xh);
    for (uint32_t i = 0; i < N; i++) xi[i] = static_cast<int32_t>(i * 3 + 1);
    for (uint32_t i = 0; i < ROW_H; i++) xhh[i] = half(static_cast<float>(i) + 0.5f);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(copy_ub_pad_custom, 1, x, xh, out, outh);

    const int32_t *oi = reinterpret_cast<const int32_t *>(out);
    const half *ohh = reinterpret_cast<const half *>(outh);
    uint32_t bad = 0;
    auto expectI = [&](uint32_t at, int32_t want) {
        if (oi[at] != want) {
            if (bad < 10) std::printf("out[%u] = %d, expected %d\n", at, oi[at], want);
            bad++;
        }
    };
    for (uint32_t r = 0; r < ROWS; r++)
        for (uint32_t c = 0; c < 8; c++) {
            expectI(r * 8 + c, xi[r * COLS + c]);
            expectI(PICK + r * 8 + c, xi[r * COLS + c]);
        }
    for (uint32_t k = 0; k < MASKED; k++) {
        const uint32_t lane = k % 64;
        expectI(2 * PICK + k, ((LANE_BITS >> lane) & 1u) ? xi[k] : FILL);
    }
    for (uint32_t k = 0; k < 64; k++) {
        const uint32_t col = k % 32;
        const float want = col < ROW_H ? static_cast<float>(col) + 0.5f : (k < 32 ? PAD_REG : PAD_OWN);
        const float got = static_cast<float>(ohh[k]);
        if (got != want) {
            if (bad < 10) std::printf("outh[%u] = %g, expected %g\n", k, got, want);
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)xh);
    AscendC::GmFree((void *)out);
    AscendC::GmFree((void *)outh);
    std::printf("copy_ub_pad: mismatches %u\n", bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
