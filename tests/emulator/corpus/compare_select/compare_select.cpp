// z = x < y ? x : y on float, as Compare (CMPMODE::LT, bit mask out) + Select (two tensors). The tile is
// 1024 floats = 4096 bytes, a multiple of the 256 bytes Compare handles per repeat.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_LENGTH = 1024;

class KernelCompareSelect {
public:
    __aicore__ inline KernelCompareSelect() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength)
    {
        tileNum = blockLength / TILE_LENGTH;
        xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + blockLength * GetBlockIdx(), blockLength);
        zGm.SetGlobalBuffer((__gm__ float *)z + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(maskBuf, TILE_LENGTH / 8);  // one bit per element
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        Compare(mask, xLocal, yLocal, CMPMODE::LT, TILE_LENGTH);
        Select(zLocal, mask, xLocal, yLocal, SELMODE::VSEL_TENSOR_TENSOR_MODE, TILE_LENGTH);
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);
        outQueueZ.FreeTensor(zLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<TPosition::VECCALC> maskBuf;
    GlobalTensor<float> xGm, yGm, zGm;
    uint32_t tileNum;
};

__global__ __aicore__ void compare_select_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength)
{
    KernelCompareSelect op;
    op.Init(x, y, z, blockLength);
    op.Process();
}

int main()
{
    constexpr uint32_t blockDim = 2;
    constexpr uint32_t blockLength = 2 * TILE_LENGTH;
    constexpr uint32_t total = blockDim * blockLength;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(total * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(total * sizeof(float));
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(total * sizeof(float));
    float *xf = reinterpret_cast<float *>(x);
    float *yf = reinterpret_cast<float *>(y);
    float *zf = reinterpret_cast<float *>(z);
    uint32_t lessCount = 0;
    for (uint32_t i = 0; i < total; i++) {
        xf[i] = static_cast<float>((i * 7u) % 301u) - 150.0f;
        yf[i] = static_cast<float>((i * 13u + 5u) % 301u) - 150.0f;
        if (i % 64 == 3) yf[i] = xf[i];  // equal pairs: LT is false, Select takes y
        lessCount += xf[i] < yf[i] ? 1u : 0u;
        zf[i] = NAN;
    }

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(compare_select_custom, blockDim, x, y, z, blockLength);

    uint32_t bad = 0;
    double maxAbsErr = 0.0;
    for (uint32_t i = 0; i < total; i++) {
        double ref = static_cast<double>(xf[i]) < static_cast<double>(yf[i]) ? xf[i] : yf[i];
        double err = std::fabs(static_cast<double>(zf[i]) - ref);
        if (!(err <= maxAbsErr)) maxAbsErr = err;
        if (!(err == 0.0)) {
            if (bad < 10) std::printf("index %u: x %g y %g expected %g actual %g\n", i, xf[i], yf[i], ref, zf[i]);
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    std::printf("compare_select: %u elements (%u with x < y), max abs error %.3g, mismatches %u\n", total, lessCount,
                maxAbsErr, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
