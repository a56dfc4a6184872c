// y = |x| on fp16. Each block owns 4 * 256 + 13 elements: the whole tiles go through DataCopy, the
// 13-element tail (26 bytes, not a multiple of 32) through DataCopyPad in both directions.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_LENGTH = 256;

class KernelAbsTail {
public:
    __aicore__ inline KernelAbsTail() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength)
    {
        this->blockLength = blockLength;
        this->tileNum = blockLength / TILE_LENGTH;
        this->tailLength = blockLength % TILE_LENGTH;
        xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            CopyIn(i);
            Compute(TILE_LENGTH);
            CopyOut(i);
        }
        if (tailLength > 0) {
            CopyInTail();
            Compute(tailLength);
            CopyOutTail();
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void CopyInTail()
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(tailLength * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> padParams{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm[tileNum * TILE_LENGTH], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        Abs(yLocal, xLocal, count);
        outQueueY.EnQue<half>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOutTail()
    {
        LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(tailLength * sizeof(half)), 0, 0, 0};
        DataCopyPad(yGm[tileNum * TILE_LENGTH], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    uint32_t blockLength;
    uint32_t tileNum;
    uint32_t tailLength;
};

extern "C" __global__ __aicore__ void abs_unaligned_tail(GM_ADDR x, GM_ADDR y, uint32_t blockLength)
{
    KernelAbsTail op;
    op.Init(x, y, blockLength);
    op.Process();
}
