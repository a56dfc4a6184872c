// A chain over three blocks through IBSet/IBWait: block 0 writes out = x and sets its flag; block 1
// waits for it, rewrites out = out + y and sets its own; block 2 waits for block 1 and writes out + y
// again. All three write the same GM bytes, ordered by the flags only (no SyncAll), so the overlap check
// must follow IBSet -> IBWait; the result out = x + 2y shows the waits really waited.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t LEN = 64;

extern "C" __global__ __aicore__ void ib_set_wait_chain_custom(GM_ADDR x, GM_ADDR y, GM_ADDR flags, GM_ADDR out)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue, flagQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(inQueue, 1, 2 * LEN * sizeof(float));
    pipe.InitBuffer(flagQueue, 1, 8 * sizeof(int32_t));
    pipe.InitBuffer(outQueue, 1, LEN * sizeof(float));
    GlobalTensor<float> xGm, yGm, outGm;
    GlobalTensor<int32_t> flagGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, LEN);
    yGm.SetGlobalBuffer((__gm__ float *)y, LEN);
    outGm.SetGlobalBuffer((__gm__ float *)out, LEN);
    flagGm.SetGlobalBuffer((__gm__ int32_t *)flags, 8 * 8);
    const int32_t me = GetBlockIdx();
    LocalTensor<int32_t> flagBuf = flagQueue.AllocTensor<int32_t>();
    if (me > 0) IBWait(flagGm, flagBuf, me - 1, 0);
    LocalTensor<float> in = inQueue.AllocTensor<float>();
    DataCopy(in, me == 0 ? xGm : outGm, LEN);
    DataCopy(in[LEN], yGm, LEN);
    inQueue.EnQue(in);
    in = inQueue.DeQue<float>();
    LocalTensor<float> res = outQueue.AllocTensor<float>();
    if (me == 0) {
        Adds(res, in, 0.0f, LEN);
    } else {
        Add(res, in, in[LEN], LEN);
    }
    outQueue.EnQue(res);
    res = outQueue.DeQue<float>();
    DataCopy(outGm, res, LEN);
    outQueue.FreeTensor(res);
    inQueue.FreeTensor(in);
    IBSet(flagGm, flagBuf, me, 0);
    flagQueue.FreeTensor(flagBuf);
}
