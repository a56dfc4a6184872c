// Correct but slow: z = x + y over half, element by element through raw __gm__ pointers (no DataCopy,
// no vector instruction). Every load and store is a scalar GM access; the emulator must compute the
// right answer and record and cost each access (tests/core/EmulatorRawAccessTest.cpp).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCKS = 8;
constexpr uint32_t PER_BLOCK = 2048;

extern "C" __global__ __aicore__ void scalar_add(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    const uint32_t start = GetBlockIdx() * PER_BLOCK;
    auto *px = reinterpret_cast<__gm__ half *>(x) + start;
    auto *py = reinterpret_cast<__gm__ half *>(y) + start;
    auto *pz = reinterpret_cast<__gm__ half *>(z) + start;
    for (uint32_t i = 0; i < PER_BLOCK; ++i) {
        pz[i] = px[i] + py[i];
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
    ICPU_RUN_KF(scalar_add, BLOCKS, (uint8_t *)x, (uint8_t *)y, (uint8_t *)z);
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
