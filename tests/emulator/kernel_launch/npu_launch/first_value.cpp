// SPDX-License-Identifier: MIT
// Broadcasts x[0] to z[0..63]: x[0] is read through a raw pointer before any API call (as kernels read a
// scalar parameter block), so with host memory for x the raw read is the error (main.cpp --host-raw).
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void first_value(GM_ADDR x, GM_ADDR z)
{
    const float v = reinterpret_cast<__gm__ float *>(x)[0];
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, v, 64);
    PipeBarrier<PIPE_ALL>();
    GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);
    DataCopy(zGm, t, 64);
}
