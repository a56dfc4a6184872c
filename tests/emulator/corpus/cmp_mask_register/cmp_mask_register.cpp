// The CMPMASK register and Select's mode 0. Compare without a destination compares one repeat (here the
// first 40 of 64 float lanes) into the register and GetCmpMask copies its 16 bytes to UB; Select with
// SELMODE::VSEL_CMPMASK_SPR applies the same 64 selMask bits to each of the four repeats of 256 floats.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t LENGTH = 256;         // four repeats of 64 floats
constexpr uint32_t LANES = 64;           // floats per 256-byte repeat
constexpr uint32_t COMPARED_LANES = 40;  // the continuous mask of the register Compare
constexpr uint32_t MASK_OUT_BYTES = 32;

extern "C" __global__ __aicore__ void cmp_mask_register_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR m)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, 1> outQueueZ, outQueueM;
    TBuf<TPosition::VECCALC> selBuf;
    GlobalTensor<float> xGm, yGm, zGm;
    GlobalTensor<uint8_t> mGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y, LENGTH);
    zGm.SetGlobalBuffer((__gm__ float *)z, LENGTH);
    mGm.SetGlobalBuffer((__gm__ uint8_t *)m, MASK_OUT_BYTES);
    pipe.InitBuffer(inQueueX, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, 1, LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueM, 1, MASK_OUT_BYTES);
    pipe.InitBuffer(selBuf, 32);

    LocalTensor<float> xIn = inQueueX.AllocTensor<float>();
    LocalTensor<float> yIn = inQueueY.AllocTensor<float>();
    DataCopy(xIn, xGm, LENGTH);
    DataCopy(yIn, yGm, LENGTH);
    inQueueX.EnQue(xIn);
    inQueueY.EnQue(yIn);
    LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    LocalTensor<float> yLocal = inQueueY.DeQue<float>();

    LocalTensor<uint8_t> maskOut = outQueueM.AllocTensor<uint8_t>();
    Duplicate(maskOut.ReinterpretCast<float>(), 0.0f, MASK_OUT_BYTES / sizeof(float));
    BinaryRepeatParams repeatParams;
    Compare(xLocal, yLocal, CMPMODE::LT, COMPARED_LANES, repeatParams);
    GetCmpMask(maskOut);
    outQueueM.EnQue(maskOut);

    LocalTensor<uint8_t> selMask = selBuf.Get<uint8_t>();
    Compare(selMask, xLocal, yLocal, CMPMODE::GT, LANES);
    LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    Select(zLocal, selMask, xLocal, yLocal, SELMODE::VSEL_CMPMASK_SPR, LENGTH);
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);

    LocalTensor<uint8_t> maskDone = outQueueM.DeQue<uint8_t>();
    DataCopy(mGm, maskDone, MASK_OUT_BYTES);
    outQueueM.FreeTensor(maskDone);
    LocalTensor<float> zDone = outQueueZ.DeQue<float>();
    DataCopy(zGm, zDone, LENGTH);
    outQueueZ.FreeTensor(zDone);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(LENGTH * sizeof(float));
    uint8_t *m = (uint8_t *)AscendC::GmAlloc(MASK_OUT_BYTES);
    float *xf = reinterpret_cast<float *>(x);
    float *yf = reinterpret_cast<float *>(y);
    float *zf = reinterpret_cast<float *>(z);
    for (uint32_t i = 0; i < LENGTH; i++) {
        xf[i] = static_cast<float>((i * 37u) % 101u) - 50.0f;
        yf[i] = static_cast<float>((i * 53u + 11u) % 101u) - 50.0f;
        zf[i] = -1000.0f;
    }
    std::memset(m, 0xAB, MASK_OUT_BYTES);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(cmp_mask_register_kernel, 1, x, y, z, m);

    uint32_t bad = 0;
    uint8_t expectMask[MASK_OUT_BYTES] = {0};
    for (uint32_t i = 0; i < COMPARED_LANES; i++)
        if (xf[i] < yf[i]) expectMask[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    for (uint32_t b = 0; b < MASK_OUT_BYTES; b++)
        if (m[b] != expectMask[b]) {
            if (bad < 10) std::printf("mask byte %u: expected 0x%02x actual 0x%02x\n", b, expectMask[b], m[b]);
            bad++;
        }
    for (uint32_t i = 0; i < LENGTH; i++) {
        const uint32_t lane = i % LANES;  // mode 0: every repeat uses the first repeat's selMask bits
        const float ref = xf[lane] > yf[lane] ? xf[i] : yf[i];
        if (zf[i] != ref) {
            if (bad < 10) std::printf("z[%u]: expected %g actual %g\n", i, ref, zf[i]);
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    AscendC::GmFree((void *)m);
    std::printf("cmp_mask_register: %u mask bytes and %u elements, mismatches %u\n", MASK_OUT_BYTES, LENGTH, bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
