// Cross-block reduction through GM atomics: each of 8 blocks sums its slice of a float vector tile by
// tile, then accumulates its partial results into ONE shared GM output with SetAtomicAdd (a 256-float
// vector with DataCopy, the scalar total with a 4-byte DataCopyPad), and folds the same partials into
// shared element-wise maxima/minima with SetAtomicMax/SetAtomicMin. int32 and half rows are accumulated
// the same way. Each block also writes its own partial to its own GM range with a plain copy (no
// overlap). The values are small integers, so every sum is exact in any order; the host compares
// everything with its own reference. Prints one line per output, then PASS or FAIL.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCKS = 8;
constexpr uint32_t VEC = 256;                  // floats per tile, and length of the shared vector outputs
constexpr uint32_t TILES = 8;
constexpr uint32_t BLOCK_LEN = VEC * TILES;    // floats per block
constexpr uint32_t ROW = 64;                   // int32 / half elements each block accumulates
constexpr uint32_t OWN = 8;                    // floats of each block's own (plain) partial slot

extern "C" __global__ __aicore__ void atomic_reduce(GM_ADDR x, GM_ADDR xi, GM_ADDR xh, GM_ADDR vecSum,
                                                    GM_ADDR total, GM_ADDR vecMax, GM_ADDR vecMin, GM_ADDR isum,
                                                    GM_ADDR imax, GM_ADDR hsum, GM_ADDR hmin, GM_ADDR own)
{
    TPipe pipe;
    const uint32_t b = GetBlockIdx();
    GlobalTensor<float> xGm, vecSumGm, totalGm, vecMaxGm, vecMinGm, ownGm;
    GlobalTensor<int32_t> xiGm, isumGm, imaxGm;
    GlobalTensor<half> xhGm, hsumGm, hminGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + BLOCK_LEN * b, BLOCK_LEN);
    xiGm.SetGlobalBuffer((__gm__ int32_t *)xi + ROW * b, ROW);
    xhGm.SetGlobalBuffer((__gm__ half *)xh + ROW * b, ROW);
    vecSumGm.SetGlobalBuffer((__gm__ float *)vecSum, VEC);
    totalGm.SetGlobalBuffer((__gm__ float *)total, 8);
    vecMaxGm.SetGlobalBuffer((__gm__ float *)vecMax, VEC);
    vecMinGm.SetGlobalBuffer((__gm__ float *)vecMin, VEC);
    isumGm.SetGlobalBuffer((__gm__ int32_t *)isum, ROW);
    imaxGm.SetGlobalBuffer((__gm__ int32_t *)imax, ROW);
    hsumGm.SetGlobalBuffer((__gm__ half *)hsum, ROW);
    hminGm.SetGlobalBuffer((__gm__ half *)hmin, ROW);
    ownGm.SetGlobalBuffer((__gm__ float *)own + OWN * b, OWN);

    TQue<QuePosition::VECIN, 2> inQueue;
    TBuf<TPosition::VECCALC> accBuf, workBuf, sumBuf, iBuf, hBuf;
    pipe.InitBuffer(inQueue, 2, VEC * sizeof(float));
    pipe.InitBuffer(accBuf, VEC * sizeof(float));
    pipe.InitBuffer(workBuf, VEC * sizeof(float));
    pipe.InitBuffer(sumBuf, OWN * sizeof(float));
    pipe.InitBuffer(iBuf, ROW * sizeof(int32_t));
    pipe.InitBuffer(hBuf, ROW * sizeof(half));
    LocalTensor<float> acc = accBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> sum = sumBuf.Get<float>();
    LocalTensor<int32_t> iRow = iBuf.Get<int32_t>();
    LocalTensor<half> hRow = hBuf.Get<half>();

    // This block's partial: acc[j] = sum over tiles of x[t * VEC + j]; sum[0] = sum of acc.
    Duplicate(acc, 0.0f, VEC);
    for (uint32_t t = 0; t < TILES; t++) {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[t * VEC], VEC);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        Add(acc, acc, xLocal, VEC);
        inQueue.FreeTensor(xLocal);
    }
    Duplicate(sum, 0.0f, OWN);
    ReduceSum(sum, acc, work, VEC);
    DataCopy(iRow, xiGm, ROW);
    DataCopy(hRow, xhGm, ROW);
    PipeBarrier<PIPE_ALL>();

    // Plain write to this block's own slot.
    DataCopy(ownGm, sum, OWN);

    // Accumulate into the shared outputs.
    SetAtomicAdd<float>();
    DataCopy(vecSumGm, acc, VEC);
    DataCopyPad(totalGm, sum, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
    SetAtomicAdd<int32_t>();
    DataCopy(isumGm, iRow, ROW);
    SetAtomicAdd<half>();
    DataCopy(hsumGm, hRow, ROW);
    SetAtomicMax<float>();
    DataCopy(vecMaxGm, acc, VEC);
    SetAtomicMax<int32_t>();
    DataCopy(imaxGm, iRow, ROW);
    SetAtomicMin<float>();
    DataCopy(vecMinGm, acc, VEC);
    SetAtomicMin<half>();
    DataCopy(hminGm, hRow, ROW);
    SetAtomicNone();
}

static int g_bad = 0;
static void Expect(const char *what, uint32_t i, double got, double want)
{
    if (got != want) {
        if (g_bad < 10) std::printf("%s[%u]: expected %.9g actual %.9g\n", what, i, want, got);
        g_bad++;
    }
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(BLOCKS * BLOCK_LEN * sizeof(float));
    uint8_t *xi = (uint8_t *)AscendC::GmAlloc(BLOCKS * ROW * sizeof(int32_t));
    uint8_t *xh = (uint8_t *)AscendC::GmAlloc(BLOCKS * ROW * sizeof(half));
    uint8_t *vecSum = (uint8_t *)AscendC::GmAlloc(VEC * sizeof(float));
    uint8_t *total = (uint8_t *)AscendC::GmAlloc(8 * sizeof(float));
    uint8_t *vecMax = (uint8_t *)AscendC::GmAlloc(VEC * sizeof(float));
    uint8_t *vecMin = (uint8_t *)AscendC::GmAlloc(VEC * sizeof(float));
    uint8_t *isum = (uint8_t *)AscendC::GmAlloc(ROW * sizeof(int32_t));
    uint8_t *imax = (uint8_t *)AscendC::GmAlloc(ROW * sizeof(int32_t));
    uint8_t *hsum = (uint8_t *)AscendC::GmAlloc(ROW * sizeof(half));
    uint8_t *hmin = (uint8_t *)AscendC::GmAlloc(ROW * sizeof(half));
    uint8_t *own = (uint8_t *)AscendC::GmAlloc(BLOCKS * OWN * sizeof(float));
    float *xf = reinterpret_cast<float *>(x);
    int32_t *xiv = reinterpret_cast<int32_t *>(xi);
    half *xhv = reinterpret_cast<half *>(xh);
    float *sumF = reinterpret_cast<float *>(vecSum), *totF = reinterpret_cast<float *>(total);
    float *maxF = reinterpret_cast<float *>(vecMax), *minF = reinterpret_cast<float *>(vecMin);
    int32_t *isumV = reinterpret_cast<int32_t *>(isum), *imaxV = reinterpret_cast<int32_t *>(imax);
    half *hsumV = reinterpret_cast<half *>(hsum), *hminV = reinterpret_cast<half *>(hmin);
    float *ownF = reinterpret_cast<float *>(own);

    for (uint32_t i = 0; i < BLOCKS * BLOCK_LEN; i++)
        xf[i] = static_cast<float>(static_cast<int32_t>((i * 37u + i / 97u) % 19u) - 9);
    for (uint32_t i = 0; i < BLOCKS * ROW; i++) {
        xiv[i] = static_cast<int32_t>((i * 7919u) % 2001u) - 1000 + static_cast<int32_t>(i / ROW) * 100000;
        xhv[i] = half(static_cast<float>(static_cast<int32_t>((i * 13u) % 9u) - 4));
    }
    for (uint32_t j = 0; j < VEC; j++) {
        sumF[j] = 0.0f;
        maxF[j] = -INFINITY;
        minF[j] = INFINITY;
    }
    for (uint32_t j = 0; j < 8; j++) totF[j] = 0.0f;
    for (uint32_t j = 0; j < ROW; j++) {
        isumV[j] = 0;
        imaxV[j] = INT32_MIN;
        hsumV[j] = half(0.0f);
        hminV[j] = half(INFINITY);
    }
    for (uint32_t j = 0; j < BLOCKS * OWN; j++) ownF[j] = NAN;

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(atomic_reduce, BLOCKS, x, xi, xh, vecSum, total, vecMax, vecMin, isum, imax, hsum, hmin, own);

    // Host reference.
    double refTotal = 0.0;
    int before = 0;
    auto line = [&](const char *name) {
        std::printf("%-22s %s\n", name, g_bad == before ? "ok" : "MISMATCH");
        before = g_bad;
    };
    double refSum[VEC], refMax[VEC], refMin[VEC];
    for (uint32_t j = 0; j < VEC; j++) {
        refSum[j] = 0.0;
        refMax[j] = -INFINITY;
        refMin[j] = INFINITY;
    }
    for (uint32_t b = 0; b < BLOCKS; b++) {
        double blockTotal = 0.0;
        for (uint32_t j = 0; j < VEC; j++) {
            double part = 0.0;
            for (uint32_t t = 0; t < TILES; t++) part += xf[b * BLOCK_LEN + t * VEC + j];
            refSum[j] += part;
            refMax[j] = std::fmax(refMax[j], part);
            refMin[j] = std::fmin(refMin[j], part);
            blockTotal += part;
        }
        refTotal += blockTotal;
        Expect("own", b, ownF[b * OWN], blockTotal);
    }
    line("plain per-block slot");
    for (uint32_t j = 0; j < VEC; j++) Expect("vecSum", j, sumF[j], refSum[j]);
    line("SetAtomicAdd<float>");
    Expect("total", 0, totF[0], refTotal);
    for (uint32_t j = 1; j < 8; j++) Expect("total(untouched)", j, totF[j], 0.0);
    line("DataCopyPad atomic");
    for (uint32_t j = 0; j < VEC; j++) Expect("vecMax", j, maxF[j], refMax[j]);
    line("SetAtomicMax<float>");
    for (uint32_t j = 0; j < VEC; j++) Expect("vecMin", j, minF[j], refMin[j]);
    line("SetAtomicMin<float>");
    for (uint32_t j = 0; j < ROW; j++) {
        int64_t s = 0;
        int32_t m = INT32_MIN;
        for (uint32_t b = 0; b < BLOCKS; b++) {
            s += xiv[b * ROW + j];
            if (xiv[b * ROW + j] > m) m = xiv[b * ROW + j];
        }
        Expect("isum", j, isumV[j], static_cast<double>(s));
        Expect("imax", j, imaxV[j], m);
    }
    line("SetAtomicAdd/Max<int32>");
    for (uint32_t j = 0; j < ROW; j++) {
        double s = 0.0, m = INFINITY;
        for (uint32_t b = 0; b < BLOCKS; b++) {
            const double v = static_cast<float>(xhv[b * ROW + j]);
            s += v;
            m = std::fmin(m, v);
        }
        Expect("hsum", j, static_cast<float>(hsumV[j]), s);
        Expect("hmin", j, static_cast<float>(hminV[j]), m);
    }
    line("SetAtomicAdd/Min<half>");

    std::printf("atomic_reduce: %u blocks, total %.9g (reference %.9g), mismatches %d\n", BLOCKS,
                static_cast<double>(totF[0]), refTotal, g_bad);
    for (uint8_t *p : {x, xi, xh, vecSum, total, vecMax, vecMin, isum, imax, hsum, hmin, own}) AscendC::GmFree((void *)p);
    std::printf("%s\n", g_bad == 0 ? "PASS" : "FAIL");
    return g_bad == 0 ? 0 : 1;
}
