// y = x >= 0 ? x : NEGATIVE_SLOPE * x on float. Kernel and main in one file, kernel without extern "C",
// the length passed as a plain int.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_LENGTH = 512;
constexpr float NEGATIVE_SLOPE = 0.05f;

class KernelLeakyRelu {
public:
    __aicore__ inline KernelLeakyRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, int totalLength)
    {
        blockLength = totalLength / GetBlockNum();
        tileNum = blockLength / TILE_LENGTH;
        xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < tileNum; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LeakyRelu(yLocal, xLocal, NEGATIVE_SLOPE, TILE_LENGTH);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    int32_t blockLength;
    int32_t tileNum;
};

__global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, int totalLength)
{
    KernelLeakyRelu op;
    op.Init(x, y, totalLength);
    op.Process();
}

int main()
{
    constexpr uint32_t blockDim = 4;
    constexpr int totalLength = blockDim * 4 * TILE_LENGTH;
    size_t byteSize = totalLength * sizeof(float);
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(byteSize);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(byteSize);
    float *xf = reinterpret_cast<float *>(x);
    float *yf = reinterpret_cast<float *>(y);
    for (int i = 0; i < totalLength; i++) {
        // negatives, positives, zero and a few large magnitudes
        xf[i] = static_cast<float>((i * 7919) % 4001 - 2000) / 64.0f;
        if (i % 97 == 0) xf[i] *= 1000.0f;
        yf[i] = 12345.0f;
    }

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(leaky_relu_custom, blockDim, x, y, totalLength);

    double maxRelErr = 0.0;
    int bad = 0;
    for (int i = 0; i < totalLength; i++) {
        double in = xf[i];
        double ref = in >= 0.0 ? in : static_cast<double>(NEGATIVE_SLOPE) * in;
        double err = std::fabs(static_cast<double>(yf[i]) - ref);
        double rel = ref != 0.0 ? err / std::fabs(ref) : err;
        if (rel > maxRelErr) maxRelErr = rel;
        if (err > 1e-6 * std::fabs(ref) + 1e-30) {
            if (bad < 10) std::printf("index %d: x %.8g expected %.8g actual %.8g\n", i, in, ref, yf[i]);
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    std::printf("leaky_relu: %d elements, max rel error %.3g, mismatches %d\n", totalLength, maxRelErr, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
