// Row sums of a [ROWS, 16] float matrix with one WholeReduceSum: mask 16 (one row), source repeat stride
// 2 blocks (64 bytes, one row), so each repeat reads only the first 64 of its 256 bytes. The source
// buffer ends exactly at the last row: the unread tail of the last repeat lies past it, which is not an
// access (the public MoeSoftMaxTopk kernel-launch sample reduces its rows this way).
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ROWS = 32;
constexpr uint32_t COLS = 16;

extern "C" __global__ __aicore__ void whole_reduce_rows_custom(GM_ADDR x, GM_ADDR sums)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, sumBuf;
    pipe.InitBuffer(xBuf, ROWS * COLS * sizeof(float));
    pipe.InitBuffer(sumBuf, ROWS * sizeof(float));
    GlobalTensor<float> xGm, sumGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * ROWS * COLS, ROWS * COLS);
    sumGm.SetGlobalBuffer((__gm__ float *)sums + GetBlockIdx() * ROWS, ROWS);
    LocalTensor<float> xl = xBuf.Get<float>();
    LocalTensor<float> sl = sumBuf.Get<float>();
    DataCopy(xl, xGm, ROWS * COLS);
    PipeBarrier<PIPE_ALL>();
    // dstRepStride 1 (one float per row), srcBlkStride 1, srcRepStride 2 blocks = one row of 16 floats
    WholeReduceSum(sl, xl, COLS, ROWS, 1, 1, COLS * sizeof(float) / 32);
    PipeBarrier<PIPE_ALL>();
    DataCopy(sumGm, sl, ROWS);
}
