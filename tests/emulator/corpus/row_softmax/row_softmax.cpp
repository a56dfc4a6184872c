// Row-wise softmax over float rows of 1024: max, x - max, exp, sum, scale by 1/sum. Temporaries live in
// TBuf (VECCALC); the scalar results of the reductions are read with GetValue (auto-sync orders V -> S).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t ROW_LENGTH = 1024;
constexpr int32_t BUFFER_NUM = 2;

class KernelRowSoftmax {
public:
    __aicore__ inline KernelRowSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rowsPerBlock)
    {
        this->rowsPerBlock = rowsPerBlock;
        uint32_t blockElems = rowsPerBlock * ROW_LENGTH;
        xGm.SetGlobalBuffer((__gm__ float *)x + blockElems * GetBlockIdx(), blockElems);
        yGm.SetGlobalBuffer((__gm__ float *)y + blockElems * GetBlockIdx(), blockElems);
        pipe.InitBuffer(inQueue, BUFFER_NUM, ROW_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, ROW_LENGTH * sizeof(float));
        pipe.InitBuffer(workBuf, ROW_LENGTH * sizeof(float));
        pipe.InitBuffer(reduceBuf, 32);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < rowsPerBlock; row++) {
            CopyIn(row);
            Compute();
            CopyOut(row);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[row * ROW_LENGTH], ROW_LENGTH);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> workLocal = workBuf.Get<float>();
        LocalTensor<float> reduceLocal = reduceBuf.Get<float>();

        ReduceMax<float>(reduceLocal, xLocal, workLocal, ROW_LENGTH);
        float rowMax = reduceLocal.GetValue(0);
        Adds(yLocal, xLocal, -rowMax, ROW_LENGTH);
        Exp(yLocal, yLocal, ROW_LENGTH);
        ReduceSum<float>(reduceLocal, yLocal, workLocal, ROW_LENGTH);
        float rowSum = reduceLocal.GetValue(0);
        Muls(yLocal, yLocal, 1.0f / rowSum, ROW_LENGTH);

        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t row)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[row * ROW_LENGTH], yLocal, ROW_LENGTH);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> reduceBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t rowsPerBlock;
};

extern "C" __global__ __aicore__ void row_softmax(GM_ADDR x, GM_ADDR y, uint32_t rowsPerBlock)
{
    KernelRowSoftmax op;
    op.Init(x, y, rowsPerBlock);
    op.Process();
}

int main()
{
    constexpr uint32_t blockDim = 8;
    constexpr uint32_t rowsPerBlock = 4;
    constexpr uint32_t rows = blockDim * rowsPerBlock;
    constexpr uint32_t total = rows * ROW_LENGTH;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(total * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(total * sizeof(float));
    float *xf = reinterpret_cast<float *>(x);
    float *yf = reinterpret_cast<float *>(y);
    uint32_t state = 12345u;
    for (uint32_t i = 0; i < total; i++) {
        state = state * 1664525u + 1013904223u;
        // rows get different offsets so that the max subtraction matters (exp(90) overflows float)
        float offset = static_cast<float>(i / ROW_LENGTH) * 10.0f - 60.0f;
        xf[i] = offset + static_cast<float>(state >> 8) / 16777216.0f * 20.0f - 10.0f;
        yf[i] = -1.0f;
    }

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(row_softmax, blockDim, x, y, rowsPerBlock);

    uint32_t bad = 0;
    double maxRelErr = 0.0;
    for (uint32_t r = 0; r < rows; r++) {
        const float *in = xf + r * ROW_LENGTH;
        double m = in[0];
        for (uint32_t c = 1; c < ROW_LENGTH; c++) m = in[c] > m ? in[c] : m;
        double s = 0.0;
        for (uint32_t c = 0; c < ROW_LENGTH; c++) s += std::exp(static_cast<double>(in[c]) - m);
        for (uint32_t c = 0; c < ROW_LENGTH; c++) {
            double ref = std::exp(static_cast<double>(in[c]) - m) / s;
            double got = yf[r * ROW_LENGTH + c];
            double rel = std::fabs(got - ref) / ref;
            if (!(rel <= maxRelErr)) maxRelErr = rel;
            if (!(rel <= 1e-4)) {
                if (bad < 10) std::printf("row %u col %u: expected %.8g actual %.8g\n", r, c, ref, got);
                bad++;
            }
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    std::printf("row_softmax: %u rows of %u, max rel error %.3g, mismatches %u\n", rows, ROW_LENGTH, maxRelErr, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
