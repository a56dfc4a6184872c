// SPDX-License-Identifier: MIT
// z = x * scale + y over float32, split evenly over the blocks; tiles of tiling.tileLength elements.
#include "kernel_operator.h"
#include "scale_add_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, ScaleAddTiling tiling)
{
    const uint32_t perBlock = tiling.totalLength / GetBlockNum();
    const uint32_t tile = tiling.tileLength;
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * perBlock, perBlock);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * perBlock, perBlock);
    zGm.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * perBlock, perBlock);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf;
    pipe.InitBuffer(xBuf, tile * sizeof(float));
    pipe.InitBuffer(yBuf, tile * sizeof(float));
    LocalTensor<float> xl = xBuf.Get<float>();
    LocalTensor<float> yl = yBuf.Get<float>();
    for (uint32_t off = 0; off < perBlock; off += tile) {
        DataCopy(xl, xGm[off], tile);
        DataCopy(yl, yGm[off], tile);
        PipeBarrier<PIPE_ALL>();
        Muls(xl, xl, tiling.scale, tile);
        Add(xl, xl, yl, tile);
        PipeBarrier<PIPE_ALL>();
        DataCopy(zGm[off], xl, tile);
        PipeBarrier<PIPE_ALL>();
    }
}
