// y = -x on a 3-element fp16 tensor (6 bytes) with whole 32-byte blocks, as public kernels written for
// aligned shapes do: both copies move 16 elements, 26 bytes past the tensors' ends. On a device those
// bytes are the allocation's padding (aclrtMalloc rounds up to 32 bytes and adds 32), so the kernel is
// correct there; the emulator notes it and reports no error (docs/emulator.md, "GM padding").
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t BLOCK_ELEMS = 16;

extern "C" __global__ __aicore__ void neg_padded(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x);
    yGm.SetGlobalBuffer((__gm__ half *)y);
    pipe.InitBuffer(inQueue, 1, BLOCK_ELEMS * sizeof(half));
    pipe.InitBuffer(outQueue, 1, BLOCK_ELEMS * sizeof(half));
    LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
    DataCopy(xLocal, xGm, BLOCK_ELEMS);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<half>();
    LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
    Muls(yLocal, xLocal, static_cast<half>(-1.0f), BLOCK_ELEMS);
    outQueue.EnQue<half>(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<half>();
    DataCopy(yGm, yLocal, BLOCK_ELEMS);
    outQueue.FreeTensor(yLocal);
}
