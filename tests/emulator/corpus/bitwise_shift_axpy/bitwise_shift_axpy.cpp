// And, Or, Not (int16_t), ShiftLeft/ShiftRight (int16_t, uint16_t, int32_t; count form and mask/repeat
// form, ShiftRight with roundEn) and Axpy (float and half, count form and mask/repeat form) checked
// against a host reference. Mask/repeat calls select only some lanes; the lanes left out must keep the
// value the destination held before. Prints one line per op, then PASS or FAIL.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 512;
constexpr int16_t SENTINEL16 = 0x1234;
constexpr float AXPY_F = 1.5f;
constexpr float AXPY_H = 0.75f;
// Alternating lanes (bit mask mode, 16-bit data: 128 lanes per repeat).
constexpr uint64_t ALT_MASK = 0x5555555555555555ull;

// Outputs, in units of N elements of the respective dtype.
enum I16Out : uint32_t { I16_AND, I16_OR, I16_NOT, I16_SHL, I16_SHR, I16_SHR_ROUND, I16_OUTS };
enum U16Out : uint32_t { U16_SHL, U16_SHR, U16_SHR_ROUND, U16_OUTS };
enum I32Out : uint32_t { I32_SHL, I32_SHR, I32_SHR_ROUND, I32_OUTS };
enum FOut : uint32_t { F_AXPY, F_AXPY_MASK, F_OUTS };

extern "C" __global__ __aicore__ void bitwise_shift_axpy(GM_ADDR i16In, GM_ADDR u16In, GM_ADDR i32In, GM_ADDR fIn,
                                                         GM_ADDR hIn, GM_ADDR i16Out, GM_ADDR u16Out,
                                                         GM_ADDR i32Out, GM_ADDR fOut, GM_ADDR hOut)
{
    TPipe pipe;
    GlobalTensor<int16_t> i16InGm, i16OutGm;
    GlobalTensor<uint16_t> u16InGm, u16OutGm;
    GlobalTensor<int32_t> i32InGm, i32OutGm;
    GlobalTensor<float> fInGm, fOutGm;
    GlobalTensor<half> hInGm, hOutGm;
    i16InGm.SetGlobalBuffer((__gm__ int16_t *)i16In, 2 * N);
    u16InGm.SetGlobalBuffer((__gm__ uint16_t *)u16In, N);
    i32InGm.SetGlobalBuffer((__gm__ int32_t *)i32In, N);
    fInGm.SetGlobalBuffer((__gm__ float *)fIn, 2 * N);
    hInGm.SetGlobalBuffer((__gm__ half *)hIn, 2 * N);
    i16OutGm.SetGlobalBuffer((__gm__ int16_t *)i16Out, I16_OUTS * N);
    u16OutGm.SetGlobalBuffer((__gm__ uint16_t *)u16Out, U16_OUTS * N);
    i32OutGm.SetGlobalBuffer((__gm__ int32_t *)i32Out, I32_OUTS * N);
    fOutGm.SetGlobalBuffer((__gm__ float *)fOut, F_OUTS * N);
    hOutGm.SetGlobalBuffer((__gm__ half *)hOut, F_OUTS * N);

    TBuf<TPosition::VECCALC> i16Buf, u16Buf, i32Buf, fBuf, hBuf;
    pipe.InitBuffer(i16Buf, (2 + I16_OUTS) * N * sizeof(int16_t));
    pipe.InitBuffer(u16Buf, (1 + U16_OUTS) * N * sizeof(uint16_t));
    pipe.InitBuffer(i32Buf, (1 + I32_OUTS) * N * sizeof(int32_t));
    pipe.InitBuffer(fBuf, (1 + F_OUTS) * N * sizeof(float));
    pipe.InitBuffer(hBuf, (1 + F_OUTS) * N * sizeof(half));
    LocalTensor<int16_t> i16 = i16Buf.Get<int16_t>();
    LocalTensor<uint16_t> u16 = u16Buf.Get<uint16_t>();
    LocalTensor<int32_t> i32 = i32Buf.Get<int32_t>();
    LocalTensor<float> f = fBuf.Get<float>();
    LocalTensor<half> h = hBuf.Get<half>();
    // Inputs first (a, b for int16; x for float/half), outputs after them.
    LocalTensor<int16_t> a16 = i16, b16 = i16[N];
    LocalTensor<uint16_t> x16 = u16;
    LocalTensor<int32_t> x32 = i32;
    LocalTensor<float> xf = f;
    LocalTensor<half> xh = h;
    auto o16 = [&](uint32_t k) { return i16[(2 + k) * N]; };
    auto ou16 = [&](uint32_t k) { return u16[(1 + k) * N]; };
    auto o32 = [&](uint32_t k) { return i32[(1 + k) * N]; };
    auto of = [&](uint32_t k) { return f[(1 + k) * N]; };
    auto oh = [&](uint32_t k) { return h[(1 + k) * N]; };

    DataCopy(i16, i16InGm, 2 * N);
    DataCopy(x16, u16InGm, N);
    DataCopy(x32, i32InGm, N);
    DataCopy(xf, fInGm, N);
    DataCopy(xh, hInGm, N);
    // Axpy accumulates into its destination: load y straight into both destinations.
    for (uint32_t k = 0; k < F_OUTS; k++) {
        DataCopy(of(k), fInGm[N], N);
        DataCopy(oh(k), hInGm[N], N);
    }
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);

    // int16: count form, continuous mask, bit mask over a sentinel.
    And(o16(I16_AND), a16, b16, N);
    Or(o16(I16_OR), a16, b16, 128, N / 128, {1, 1, 1, 8, 8, 8});
    Duplicate(o16(I16_NOT), SENTINEL16, N);
    uint64_t alt[2] = {ALT_MASK, ALT_MASK};
    Not(o16(I16_NOT), a16, alt, N / 128, {1, 1, 8, 8});
    ShiftLeft(o16(I16_SHL), a16, static_cast<int16_t>(3), N);
    ShiftRight(o16(I16_SHR), a16, static_cast<int16_t>(3), N);
    ShiftRight(o16(I16_SHR_ROUND), a16, static_cast<int16_t>(4), 128, N / 128, {1, 1, 8, 8}, true);

    // uint16: logical shifts; roundEn has no effect on unsigned data.
    ShiftLeft(ou16(U16_SHL), x16, static_cast<uint16_t>(4), 128, N / 128, {1, 1, 8, 8});
    ShiftRight(ou16(U16_SHR), x16, static_cast<uint16_t>(5), N);
    ShiftRight(ou16(U16_SHR_ROUND), x16, static_cast<uint16_t>(2), alt, N / 128, {1, 1, 8, 8}, true);

    // int32: 64 lanes per repeat.
    ShiftLeft(o32(I32_SHL), x32, static_cast<int32_t>(7), N);
    ShiftRight(o32(I32_SHR), x32, static_cast<int32_t>(5), N);
    ShiftRight(o32(I32_SHR_ROUND), x32, static_cast<int32_t>(5), 64, N / 64, {1, 1, 8, 8}, true);

    // Axpy: dst = x * s + dst; the mask forms leave the unselected lanes at y.
    Axpy(of(F_AXPY), xf, AXPY_F, N);
    Axpy(of(F_AXPY_MASK), xf, AXPY_F, 32, N / 64, {1, 1, 8, 8});
    Axpy(oh(F_AXPY), xh, static_cast<half>(AXPY_H), N);
    Axpy(oh(F_AXPY_MASK), xh, static_cast<half>(AXPY_H), 64, N / 128, {1, 1, 8, 8});

    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(i16OutGm, o16(0), I16_OUTS * N);
    DataCopy(u16OutGm, ou16(0), U16_OUTS * N);
    DataCopy(i32OutGm, o32(0), I32_OUTS * N);
    DataCopy(fOutGm, of(0), F_OUTS * N);
    DataCopy(hOutGm, oh(0), F_OUTS * N);
}

// ------------------------------------------------------------------------------------------------ host

static int g_bad = 0;

template <typename T>
static void Expect(const char *op, uint32_t i, T got, T want)
{
    if (got != want) {
        if (g_bad < 20)
            std::printf("%s[%u]: expected %lld got %lld\n", op, i, static_cast<long long>(want),
                        static_cast<long long>(got));
        g_bad++;
    }
}

static void ExpectNear(const char *op, uint32_t i, double got, double want, double rtol, double atol)
{
    if (!(std::fabs(got - want) <= rtol * std::fabs(want) + atol)) {
        if (g_bad < 20) std::printf("%s[%u]: expected %.8g got %.8g\n", op, i, want, got);
        g_bad++;
    }
}

static int64_t ArithShr(int64_t x, int s, bool round)
{
    int64_t r = x >> s;  // arithmetic for signed values (C++20)
    if (round && s > 0) r += (x >> (s - 1)) & 1;
    return r;
}

int main()
{
    uint8_t *i16In = (uint8_t *)AscendC::GmAlloc(2 * N * sizeof(int16_t));
    uint8_t *u16In = (uint8_t *)AscendC::GmAlloc(N * sizeof(uint16_t));
    uint8_t *i32In = (uint8_t *)AscendC::GmAlloc(N * sizeof(int32_t));
    uint8_t *fIn = (uint8_t *)AscendC::GmAlloc(2 * N * sizeof(float));
    uint8_t *hIn = (uint8_t *)AscendC::GmAlloc(2 * N * sizeof(half));
    uint8_t *i16Out = (uint8_t *)AscendC::GmAlloc(I16_OUTS * N * sizeof(int16_t));
    uint8_t *u16Out = (uint8_t *)AscendC::GmAlloc(U16_OUTS * N * sizeof(uint16_t));
    uint8_t *i32Out = (uint8_t *)AscendC::GmAlloc(I32_OUTS * N * sizeof(int32_t));
    uint8_t *fOut = (uint8_t *)AscendC::GmAlloc(F_OUTS * N * sizeof(float));
    uint8_t *hOut = (uint8_t *)AscendC::GmAlloc(F_OUTS * N * sizeof(half));
    int16_t *ai = reinterpret_cast<int16_t *>(i16In);
    uint16_t *au = reinterpret_cast<uint16_t *>(u16In);
    int32_t *a32 = reinterpret_cast<int32_t *>(i32In);
    float *af = reinterpret_cast<float *>(fIn);
    half *ah = reinterpret_cast<half *>(hIn);
    uint32_t state = 20240607u;
    auto next = [&state]() {
        state = state * 1103515245u + 12345u;
        return state;
    };
    for (uint32_t i = 0; i < N; i++) {
        ai[i] = static_cast<int16_t>(next() >> 8);        // full range, negatives included
        ai[N + i] = static_cast<int16_t>(next() >> 12);
        au[i] = static_cast<uint16_t>(next() >> 5);
        a32[i] = static_cast<int32_t>(next());            // full range
        af[i] = static_cast<float>(static_cast<int32_t>(next() % 4001) - 2000) / 64.0f;
        af[N + i] = static_cast<float>(static_cast<int32_t>(next() % 2001) - 1000) / 32.0f;
        ah[i] = static_cast<half>(static_cast<float>(static_cast<int32_t>(next() % 801) - 400) / 16.0f);
        ah[N + i] = static_cast<half>(static_cast<float>(static_cast<int32_t>(next() % 801) - 400) / 8.0f);
    }
    ai[0] = INT16_MIN;
    ai[1] = INT16_MAX;
    ai[2] = -1;
    ai[3] = 24;  // 0b11000: shifted right by 4 is 1, and roundEn adds the last bit shifted out (1)
    a32[0] = INT32_MIN;
    a32[1] = INT32_MAX;
    a32[2] = -17;
    au[0] = 0xffff;

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(bitwise_shift_axpy, 1, i16In, u16In, i32In, fIn, hIn, i16Out, u16Out, i32Out, fOut, hOut);

    const int16_t *oi = reinterpret_cast<const int16_t *>(i16Out);
    const uint16_t *ou = reinterpret_cast<const uint16_t *>(u16Out);
    const int32_t *o32 = reinterpret_cast<const int32_t *>(i32Out);
    const float *of = reinterpret_cast<const float *>(fOut);
    const half *oh = reinterpret_cast<const half *>(hOut);
    const char *names[] = {"And", "Or", "Not", "ShiftLeft<int16>", "ShiftRight<int16>", "ShiftRight<int16,round>",
                           "ShiftLeft<uint16>", "ShiftRight<uint16>", "ShiftRight<uint16,round>",
                           "ShiftLeft<int32>", "ShiftRight<int32>", "ShiftRight<int32,round>",
                           "Axpy<float>", "Axpy<float,mask>", "Axpy<half>", "Axpy<half,mask>"};
    int before = 0, row = 0;
    auto report = [&](void) {
        std::printf("%-26s %s\n", names[row++], g_bad == before ? "ok" : "MISMATCH");
        before = g_bad;
    };
    for (uint32_t i = 0; i < N; i++) Expect("And", i, oi[I16_AND * N + i], static_cast<int16_t>(ai[i] & ai[N + i]));
    report();
    for (uint32_t i = 0; i < N; i++) Expect("Or", i, oi[I16_OR * N + i], static_cast<int16_t>(ai[i] | ai[N + i]));
    report();
    for (uint32_t i = 0; i < N; i++) {
        const bool on = (i % 2) == 0;
        Expect("Not", i, oi[I16_NOT * N + i], on ? static_cast<int16_t>(~ai[i]) : SENTINEL16);
    }
    report();
    for (uint32_t i = 0; i < N; i++)
        Expect("ShiftLeft<int16>", i, oi[I16_SHL * N + i],
               static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint16_t>(ai[i]) << 3)));
    report();
    for (uint32_t i = 0; i < N; i++)
        Expect("ShiftRight<int16>", i, oi[I16_SHR * N + i], static_cast<int16_t>(ArithShr(ai[i], 3, false)));
    report();
    for (uint32_t i = 0; i < N; i++)
        Expect("ShiftRight<int16,round>", i, oi[I16_SHR_ROUND * N + i], static_cast<int16_t>(ArithShr(ai[i], 4, true)));
    Expect("ShiftRight<int16,round>(24>>4)", 3, oi[I16_SHR_ROUND * N + 3], static_cast<int16_t>(2));
    report();
    for (uint32_t i = 0; i < N; i++)
        Expect("ShiftLeft<uint16>", i, ou[U16_SHL * N + i], static_cast<uint16_t>(au[i] << 4));
    report();
    for (uint32_t i = 0; i < N; i++)
        Expect("ShiftRight<uint16>", i, ou[U16_SHR * N + i], static_cast<uint16_t>(au[i] >> 5));
    report();
    // Bit-mask lanes only; the unselected lanes were never written (the buffer held whatever UB held),
    // so only the selected ones are compared.
    for (uint32_t i = 0; i < N; i += 2)
        Expect("ShiftRight<uint16,round>", i, ou[U16_SHR_ROUND * N + i], static_cast<uint16_t>(au[i] >> 2));
    report();
    for (uint32_t i = 0; i < N; i++)
        Expect("ShiftLeft<int32>", i, o32[I32_SHL * N + i],
               static_cast<int32_t>(static_cast<uint32_t>(a32[i]) << 7));
    report();
    for (uint32_t i = 0; i < N; i++)
        Expect("ShiftRight<int32>", i, o32[I32_SHR * N + i], static_cast<int32_t>(ArithShr(a32[i], 5, false)));
    report();
    for (uint32_t i = 0; i < N; i++)
        Expect("ShiftRight<int32,round>", i, o32[I32_SHR_ROUND * N + i], static_cast<int32_t>(ArithShr(a32[i], 5, true)));
    report();
    for (uint32_t i = 0; i < N; i++) {
        const double want = static_cast<double>(af[i]) * AXPY_F + af[N + i];
        ExpectNear("Axpy<float>", i, of[F_AXPY * N + i], want, 1e-6, 1e-6);
    }
    report();
    for (uint32_t i = 0; i < N; i++) {
        const bool on = (i % 64) < 32;
        const double want = on ? static_cast<double>(af[i]) * AXPY_F + af[N + i] : af[N + i];
        ExpectNear("Axpy<float,mask>", i, of[F_AXPY_MASK * N + i], want, 1e-6, 1e-6);
    }
    report();
    for (uint32_t i = 0; i < N; i++) {
        const double want = static_cast<double>(static_cast<float>(ah[i])) * AXPY_H + static_cast<float>(ah[N + i]);
        ExpectNear("Axpy<half>", i, static_cast<float>(oh[F_AXPY * N + i]), want, 1e-3, 1e-3);
    }
    report();
    for (uint32_t i = 0; i < N; i++) {
        const bool on = (i % 128) < 64;
        const double y = static_cast<float>(ah[N + i]);
        const double want = on ? static_cast<double>(static_cast<float>(ah[i])) * AXPY_H + y : y;
        ExpectNear("Axpy<half,mask>", i, static_cast<float>(oh[F_AXPY_MASK * N + i]), want, 1e-3, 1e-3);
    }
    report();

    for (uint8_t *p : {i16In, u16In, i32In, fIn, hIn, i16Out, u16Out, i32Out, fOut, hOut}) AscendC::GmFree((void *)p);
    std::printf("bitwise_shift_axpy: %u elements per op, mismatches %d\n", N, g_bad);
    std::printf("%s\n", g_bad == 0 ? "PASS" : "FAIL");
    return g_bad == 0 ? 0 : 1;
}
