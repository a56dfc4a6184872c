#include <cmath>
#include <cstdint>
#include <cstdio>
#include "tikicpulib.h"

struct BroadcastAddTiling {
    uint32_t rows;
    uint32_t cols;
};

extern "C" __global__ __aicore__ void broadcast_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, BroadcastAddTiling tiling);

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t blockDim = 4;
    BroadcastAddTiling tiling{64, 512};
    const uint32_t total = tiling.rows * tiling.cols;
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(total * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(tiling.cols * sizeof(float));
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(total * sizeof(float));
    float *xf = reinterpret_cast<float *>(x);
    float *yf = reinterpret_cast<float *>(y);
    float *zf = reinterpret_cast<float *>(z);
    for (uint32_t i = 0; i < total; i++) {
        xf[i] = static_cast<float>(i % 1013) * 0.37f - 150.0f;
        zf[i] = NAN;
    }
    for (uint32_t c = 0; c < tiling.cols; c++) {
        yf[c] = 1000.0f + static_cast<float>(c) * 0.5f;  // every column differs: a wrong row/col mapping shows
    }

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(broadcast_add, blockDim, x, y, z, tiling);

    uint32_t bad = 0;
    double maxRelErr = 0.0;
    for (uint32_t r = 0; r < tiling.rows; r++) {
        for (uint32_t c = 0; c < tiling.cols; c++) {
            uint32_t i = r * tiling.cols + c;
            double ref = static_cast<double>(xf[i]) + static_cast<double>(yf[c]);
            double err = std::fabs(static_cast<double>(zf[i]) - ref);
            double rel = err / std::fabs(ref);
            if (!(rel <= maxRelErr)) maxRelErr = rel;
            if (!(rel <= 1e-6)) {
                if (bad < 10) std::printf("z[%u][%u]: expected %.7g actual %.7g\n", r, c, ref, zf[i]);
                bad++;
            }
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    std::printf("broadcast_add: %u x %u, max rel error %.3g, mismatches %u\n", tiling.rows, tiling.cols, maxRelErr, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
