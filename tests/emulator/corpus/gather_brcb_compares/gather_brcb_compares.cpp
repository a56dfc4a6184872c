// Data movement inside UB and scalar comparison: Gather reverses each 256-element half row through
// byte offsets (count form) and picks every other element (continuous-mask form), Brcb broadcasts 16
// floats into 16 blocks of 8, Compares marks x > 0.5 in a bit mask (count form on half, repeat form on
// float), GatherMask keeps the odd elements (built-in pattern 2, normal mode) and the elements a user
// bit pattern selects (counter mode, 100 elements per repeat). Checked against a host reference.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t N = 256;       // halves
constexpr uint32_t NB = 16;       // floats broadcast by Brcb (2 repeats of 8)
constexpr uint32_t NF = 128;      // floats compared in repeat form (2 repeats)
// Output bytes: reversed (N halves) | strided pick (128 halves) | brcb (NB * 8 floats) | half mask (N/8)
// | float mask (NF/8), each part padded to 32 bytes.
constexpr uint32_t OFF_PICK = N * 2;
constexpr uint32_t OFF_BRCB = OFF_PICK + 128 * 2;
constexpr uint32_t OFF_MASKH = OFF_BRCB + NB * 8 * 4;
constexpr uint32_t OFF_MASKF = OFF_MASKH + 32;
constexpr uint32_t OFF_ODD = OFF_MASKF + 32;             // N / 2 halves
constexpr uint32_t OFF_USER = OFF_ODD + N;                // up to N halves
constexpr uint32_t OFF_COUNTS = OFF_USER + N * 2;         // two uint32 kept-element counts
constexpr uint32_t OUT_BYTES = OFF_COUNTS + 32;
constexpr uint16_t USER_PATTERN = 0x9999;  // per 16 lanes: keep lanes 0, 3, 4, 7, 8, 11, 12, 15

__global__ __aicore__ void gather_brcb_compares_custom(GM_ADDR x, GM_ADDR xf, GM_ADDR out)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ, inQF;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> offBuf, pickOffBuf, patternBuf;
    pipe.InitBuffer(inQ, 1, N * sizeof(half));
    pipe.InitBuffer(inQF, 1, NF * sizeof(float));
    pipe.InitBuffer(outQ, 1, OUT_BYTES);
    pipe.InitBuffer(offBuf, N * sizeof(uint32_t));
    pipe.InitBuffer(pickOffBuf, 128 * sizeof(uint32_t));
    pipe.InitBuffer(patternBuf, 64);  // 2 repeats x 128 lanes / 8 bits, 32 bytes apart
    GlobalTensor<half> xGm;
    GlobalTensor<float> xfGm;
    GlobalTensor<uint8_t> outGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, N);
    xfGm.SetGlobalBuffer((__gm__ float *)xf, NF);
    outGm.SetGlobalBuffer((__gm__ uint8_t *)out, OUT_BYTES);

    LocalTensor<half> xL = inQ.AllocTensor<half>();
    LocalTensor<float> xfL = inQF.AllocTensor<float>();
    DataCopy(xL, xGm, N);
    DataCopy(xfL, xfGm, NF);
    inQ.EnQue(xL);
    inQF.EnQue(xfL);
    xL = inQ.DeQue<half>();
    xfL = inQF.DeQue<float>();

    LocalTensor<uint32_t> offsets = offBuf.Get<uint32_t>();
    LocalTensor<uint32_t> pickOffsets = pickOffBuf.Get<uint32_t>();
    for (uint32_t i = 0; i < N; i++) offsets.SetValue(i, (N - 1 - i) * sizeof(half));  // bytes
    for (uint32_t i = 0; i < 128; i++) pickOffsets.SetValue(i, 2 * i * sizeof(half));

    LocalTensor<uint8_t> o = outQ.AllocTensor<uint8_t>();
    LocalTensor<half> reversed = o.ReinterpretCast<half>();
    Gather(reversed, xL, offsets, 0, N);
    LocalTensor<half> picked = o[OFF_PICK].ReinterpretCast<half>();
    Gather(picked, xL, pickOffsets, 0, (uint64_t)128, 1, 8);
    LocalTensor<float> bc = o[OFF_BRCB].ReinterpretCast<float>();
    Brcb(bc, xfL, NB / 8, {1, 8});
    Compares(o[OFF_MASKH], xL, half(0.5f), CMPMODE::GT, N);
    UnaryRepeatParams rp;
    Compares(o[OFF_MASKF], xfL, 0.5f, CMPMODE::GT, (uint64_t)64, NF / 64, rp);
    uint64_t oddCount = 0, userCount = 0;
    LocalTensor<half> odd = o[OFF_ODD].ReinterpretCast<half>();
    GatherMask(odd, xL, (uint8_t)2, false, 0, {1, 2, 8, 0}, oddCount);
    LocalTensor<uint16_t> pattern = patternBuf.Get<uint16_t>();
    for (uint32_t i = 0; i < 32; i++) pattern.SetValue(i, USER_PATTERN);
    LocalTensor<half> user = o[OFF_USER].ReinterpretCast<half>();
    GatherMask(user, xL, pattern, true, 100, {1, 2, 8, 1}, userCount);
    LocalTensor<uint32_t> counts = o[OFF_COUNTS].ReinterpretCast<uint32_t>();
    counts.SetValue(0, static_cast<uint32_t>(oddCount));
    counts.SetValue(1, static_cast<uint32_t>(userCount));
    outQ.EnQue(o);
    inQ.FreeTensor(xL);
    inQF.FreeTensor(xfL);
    o = outQ.DeQue<uint8_t>();
    DataCopy(outGm, o, OUT_BYTES);
    outQ.FreeTensor(o);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(N * sizeof(half));
    uint8_t *xf = (uint8_t *)AscendC::GmAlloc(NF * sizeof(float));
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(OUT_BYTES);
    half *xh = reinterpret_cast<half *>(x);
    float *xff = reinterpret_cast<float *>(xf);
    for (uint32_t i = 0; i < N; i++) xh[i] = half(static_cast<float>((i * 29u) % 64u) / 32.0f);
    for (uint32_t i = 0; i < NF; i++) xff[i] = static_cast<float>((i * 13u) % 31u) / 30.0f;
    std::memset(out, 0xEE, OUT_BYTES);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(gather_brcb_compares_custom, 1, x, xf, out);

    uint32_t bad = 0;
    const half *rev = reinterpret_cast<const half *>(out);
    const half *pick = reinterpret_cast<const half *>(out + OFF_PICK);
    const float *bc = reinterpret_cast<const float *>(out + OFF_BRCB);
    for (uint32_t i = 0; i < N; i++) {
        if (static_cast<float>(rev[i]) != static_cast<float>(xh[N - 1 - i])) bad++;
        const bool bit = ((out[OFF_MASKH + i / 8] >> (i % 8)) & 1u) != 0;
        if (bit != (static_cast<float>(xh[i]) > 0.5f)) bad++;
    }
    for (uint32_t i = 0; i < 128; i++)
        if (static_cast<float>(pick[i]) != static_cast<float>(xh[2 * i])) bad++;
    for (uint32_t i = 0; i < NB * 8; i++)
        if (bc[i] != xff[i / 8]) bad++;
    for (uint32_t i = 0; i < NF; i++) {
        const bool bit = ((out[OFF_MASKF + i / 8] >> (i % 8)) & 1u) != 0;
        if (bit != (xff[i] > 0.5f)) bad++;
    }
    const half *odd = reinterpret_cast<const half *>(out + OFF_ODD);
    for (uint32_t i = 0; i < N / 2; i++)
        if (static_cast<float>(odd[i]) != static_cast<float>(xh[2 * i + 1])) bad++;
    const half *user = reinterpret_cast<const half *>(out + OFF_USER);
    uint32_t kept = 0;
    for (uint32_t r = 0; r < 2; r++)
        for (uint32_t lane = 0; lane < 100; lane++)
            if ((USER_PATTERN >> (lane % 16)) & 1u) {
                if (static_cast<float>(user[kept]) != static_cast<float>(xh[r * 128 + lane])) bad++;
                kept++;
            }
    const uint32_t *counts = reinterpret_cast<const uint32_t *>(out + OFF_COUNTS);
    if (counts[0] != N / 2 || counts[1] != kept) {
        std::printf("GatherMask counts %u %u, expected %u %u\n", counts[0], counts[1], N / 2, kept);
        bad++;
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)xf);
    AscendC::GmFree((void *)out);
    std::printf("gather_brcb_compares: mismatches %u\n", bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
