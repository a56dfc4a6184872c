// The vector version of raw/scalar_add.cpp, same shape: DataCopy in, Add, DataCopy out, double buffered.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCKS = 8;
constexpr uint32_t PER_BLOCK = 2048;
constexpr uint32_t TILE = 512;

extern "C" __global__ __aicore__ void vector_add(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qx, qy;
    TQue<QuePosition::VECOUT, 2> qz;
    GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * PER_BLOCK, PER_BLOCK);
    yGm.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * PER_BLOCK, PER_BLOCK);
    zGm.SetGlobalBuffer((__gm__ half *)z + GetBlockIdx() * PER_BLOCK, PER_BLOCK);
    pipe.InitBuffer(qx, 2, TILE * sizeof(half));
    pipe.InitBuffer(qy, 2, TILE * sizeof(half));
    pipe.InitBuffer(qz, 2, TILE * sizeof(half));
    for (uint32_t t = 0; t < PER_BLOCK / TILE; ++t) {
        LocalTensor<half> a = qx.AllocTensor<half>();
        LocalTensor<half> b = qy.AllocTensor<half>();
        DataCopy(a, xGm[t * TILE], TILE);
        DataCopy(b, yGm[t * TILE], TILE);
        qx.EnQue(a);
        qy.EnQue(b);
        a = qx.DeQue<half>();
        b = qy.DeQue<half>();
        LocalTensor<half> c = qz.AllocTensor<half>();
        Add(c, a, b, TILE);
        qz.EnQue(c);
        qx.FreeTensor(a);
        qy.FreeTensor(b);
        c = qz.DeQue<half>();
        DataCopy(zGm[t * TILE], c, TILE);
        qz.FreeTensor(c);
    }
}

int main()
{
    constexpr uint32_t n = BLOCKS * PER_BLOCK;
    auto *x = (half *)AscendC::GmAlloc(n * sizeof(half));
    auto *y = (half *)AscendC::GmAlloc(n * sizeof(half));
    auto *z = (half *)AscendC::GmAlloc(n * sizeof(half));
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = half(static_cast<float>(i % 97) * 0.25f);
        y[i] = half(static_cast<float>(i % 13) - 6.0f);
    }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(vector_add, BLOCKS, (uint8_t *)x, (uint8_t *)y, (uint8_t *)z);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const float want = static_cast<float>(half(static_cast<float>(x[i]) + static_cast<float>(y[i])));
        if (std::fabs(static_cast<float>(z[i]) - want) > 1e-3f) ++bad;
    }
    std::printf(bad == 0 ? "PASS\n" : "FAIL: %u wrong\n", bad);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    return bad == 0 ? 0 : 1;
}
