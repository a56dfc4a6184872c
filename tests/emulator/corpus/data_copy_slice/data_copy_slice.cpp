// DataCopy with SliceInfo on the API reference's worked example: from a 3 x 87 float tensor in GM, rows 0
// and 2 (src dimension 1: {0, 2, 1, 1, 3}), and in each row the two 3-block segments starting at elements
// 16 and 47 (src dimension 0: {16, 70, 7, 3, 87}: 24 floats, 7 apart), packed into a 2 x 48 UB tile
// (dst: {0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}); the tile goes back to GM with the same slice on both sides.
// The host checks every element against the example's selection and prints PASS or FAIL.
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t ROWS = 3, COLS = 87, OUT_ROWS = 2, OUT_COLS = 48;

extern "C" __global__ __aicore__ void data_copy_slice(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, ROWS * COLS);
    yGm.SetGlobalBuffer((__gm__ float *)y, OUT_ROWS * OUT_COLS);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, OUT_ROWS * OUT_COLS * sizeof(float));
    SliceInfo srcSlice[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
    SliceInfo dstSlice[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
    LocalTensor<float> tile = buf.Get<float>();
    DataCopy(tile, xGm, dstSlice, srcSlice, 2);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yGm, tile, dstSlice, dstSlice, 2);
}

int main()
{
    float *x = (float *)AscendC::GmAlloc(ROWS * COLS * sizeof(float));
    float *y = (float *)AscendC::GmAlloc(OUT_ROWS * OUT_COLS * sizeof(float));
    for (uint32_t i = 0; i < ROWS * COLS; i++) x[i] = static_cast<float>(i);
    for (uint32_t i = 0; i < OUT_ROWS * OUT_COLS; i++) y[i] = -1.0f;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(data_copy_slice, 1, (uint8_t *)x, (uint8_t *)y);
    int bad = 0;
    const uint32_t srcRows[OUT_ROWS] = {0, 2};
    const uint32_t segStart[2] = {16, 47};
    for (uint32_t r = 0; r < OUT_ROWS; r++) {
        for (uint32_t c = 0; c < OUT_COLS; c++) {
            const float want = static_cast<float>(srcRows[r] * COLS + segStart[c / 24] + c % 24);
            if (y[r * OUT_COLS + c] != want) {
                if (bad < 8) std::printf("y[%u][%u]: expected %g actual %g\n", r, c, want, y[r * OUT_COLS + c]);
                bad++;
            }
        }
    }
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    return bad == 0 ? 0 : 1;
}
