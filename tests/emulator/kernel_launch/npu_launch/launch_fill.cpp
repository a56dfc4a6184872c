// SPDX-License-Identifier: MIT
// A kernel with scalar parameters and the host function that launches it with <<<>>> (the form of the
// kernel-launch hello-world samples).
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void fill_value(GM_ADDR z, uint32_t perBlock, float value)
{
    GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * perBlock, perBlock);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, perBlock * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, value, perBlock);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, t, perBlock);
}

void fill_value_do(uint32_t blockDim, void *stream, uint8_t *z, uint32_t perBlock, float value)
{
    fill_value<<<blockDim, nullptr, stream>>>(z, perBlock, value);
}
