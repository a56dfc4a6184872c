// Deliberately broken: uses Scatter (index-driven scatter inside UB), an API the emulator does not
// implement. The build must fail at compile time naming the API (unsupported-api), never run silently.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t LENGTH = 128;

extern "C" __global__ __aicore__ void unsupported_api_kernel(GM_ADDR x, GM_ADDR index, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueIndex;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<uint32_t> indexGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, LENGTH);
    indexGm.SetGlobalBuffer((__gm__ uint32_t *)index, LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y, LENGTH);
    pipe.InitBuffer(inQueueX, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueIndex, 1, LENGTH * sizeof(uint32_t));
    pipe.InitBuffer(outQueue, 1, LENGTH * sizeof(float));

    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    LocalTensor<uint32_t> indexLocal = inQueueIndex.AllocTensor<uint32_t>();
    DataCopy(xLocal, xGm, LENGTH);
    DataCopy(indexLocal, indexGm, LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueIndex.EnQue(indexLocal);
    xLocal = inQueueX.DeQue<float>();
    indexLocal = inQueueIndex.DeQue<uint32_t>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    // indexLocal holds byte offsets into yLocal (reversal)
    Scatter(yLocal, xLocal, indexLocal, (uint32_t)0, LENGTH);  // EXPECT: unsupported-api
    outQueue.EnQue(yLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueIndex.FreeTensor(indexLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, LENGTH);
    outQueue.FreeTensor(yLocal);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    uint8_t *index = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(uint32_t));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    uint32_t *offsets = reinterpret_cast<uint32_t *>(index);
    for (uint32_t i = 0; i < LENGTH; i++) {
        offsets[i] = (LENGTH - 1 - i) * sizeof(float);
    }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(unsupported_api_kernel, 1, x, index, y);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)index);
    AscendC::GmFree((void *)y);
    return 0;
}
