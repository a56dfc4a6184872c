// Raw scalar loops over every common element type, through __gm__ pointers and a raw UB pointer
// (LocalTensor::GetPhyAddr): int32, float, uint8, half, plus int8/int16 (sign-extending loads), int64 and
// double (64-bit moves), constant stores (mov [m], imm) and a byte store. The SIGSEGV handler emulates
// these loads and stores itself (RawAccess.cpp fast path, X86Decode); the program checks every result,
// and tests/core/EmulatorRawAccessTest.cpp checks that each access is still recorded exactly once.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BLOCKS = 2;
constexpr uint32_t N = 1000;  // per block and per type: not a multiple of a page, so loops end mid-page

struct Args {
    GM_ADDR i32, f32, u8, f16, i8, i16, i64, f64, out;
};

// Every loop is a plain scalar loop; noinline keeps each one a separate function whose loads and
// stores gcc cannot merge with the others.
template <typename T>
__attribute__((noinline)) void axpb(__gm__ T *x, __gm__ T *z, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) z[i] = static_cast<T>(x[i] * static_cast<T>(3) + x[n - 1 - i]);
}

__attribute__((noinline)) void halfAdd(__gm__ half *x, __gm__ half *z, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) z[i] = x[i] + x[n - 1 - i];
}

template <typename T>
__attribute__((noinline)) void fillConst(__gm__ T *z, uint32_t n, T v)
{
    for (uint32_t i = 0; i < n; ++i) z[i] = v;
}

__attribute__((noinline)) void fillMinus3(__gm__ int32_t *z, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) z[i] = -3;  // mov [m], imm
}

template <typename T>
__attribute__((noinline)) int64_t sumSigned(__gm__ T *x, uint32_t n)
{
    int64_t s = 0;
    for (uint32_t i = 0; i < n; ++i) s += x[i];
    return s;
}

extern "C" __global__ __aicore__ void scalar_types(GM_ADDR i32, GM_ADDR f32, GM_ADDR u8, GM_ADDR f16, GM_ADDR i8,
                                                   GM_ADDR i16, GM_ADDR i64, GM_ADDR f64, GM_ADDR out)
{
    const uint32_t b = GetBlockIdx();
    // Inputs in the first half of each array, outputs in the second half (2 * N elements per block).
    auto *pi = reinterpret_cast<__gm__ int32_t *>(i32) + b * 2 * N;
    auto *pf = reinterpret_cast<__gm__ float *>(f32) + b * 2 * N;
    auto *pu = reinterpret_cast<__gm__ uint8_t *>(u8) + b * 2 * N;
    auto *ph = reinterpret_cast<__gm__ half *>(f16) + b * 2 * N;
    auto *pl = reinterpret_cast<__gm__ int64_t *>(i64) + b * 2 * N;
    auto *pd = reinterpret_cast<__gm__ double *>(f64) + b * 2 * N;
    axpb<int32_t>(pi, pi + N, N);
    axpb<float>(pf, pf + N, N);
    axpb<uint8_t>(pu, pu + N, N);
    halfAdd(ph, ph + N, N);
    axpb<int64_t>(pl, pl + N, N);
    axpb<double>(pd, pd + N, N);
    auto *po = reinterpret_cast<__gm__ int64_t *>(out) + b * 8;
    po[0] = sumSigned(reinterpret_cast<__gm__ int8_t *>(i8) + b * N, N);
    po[1] = sumSigned(reinterpret_cast<__gm__ int16_t *>(i16) + b * N, N);

    // A raw UB round trip: constants into a UB buffer, then summed back and copied out by raw stores.
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(int32_t) + N);
    LocalTensor<int32_t> t = buf.Get<int32_t>();
    auto *ub = reinterpret_cast<__ubuf__ int32_t *>(t.GetPhyAddr());
    auto *ub8 = reinterpret_cast<__ubuf__ uint8_t *>(ub + N);
    fillConst<int32_t>(ub, N, 0x12345 + static_cast<int32_t>(b));
    fillConst<uint8_t>(ub8, N, static_cast<uint8_t>(0xA5 + b));
    po[2] = sumSigned(ub, N);
    int64_t s8 = 0;
    for (uint32_t i = 0; i < N; ++i) s8 += ub8[i];
    po[3] = s8;
    fillConst<int16_t>(reinterpret_cast<__gm__ int16_t *>(out) + (BLOCKS * 8 + b * N) * 4, N, int16_t(-7));
    fillMinus3(reinterpret_cast<__gm__ int32_t *>(out) + (BLOCKS * 8 + b * N) * 2 + N / 2, N / 2);
    po[4] = 0x7e57;
}

int main()
{
    constexpr uint32_t M = BLOCKS * 2 * N;
    auto *i32 = (int32_t *)GmAlloc(M * 4);
    auto *f32 = (float *)GmAlloc(M * 4);
    auto *u8 = (uint8_t *)GmAlloc(M);
    auto *f16 = (half *)GmAlloc(M * 2);
    auto *i8 = (int8_t *)GmAlloc(BLOCKS * N);
    auto *i16 = (int16_t *)GmAlloc(BLOCKS * N * 2);
    auto *i64 = (int64_t *)GmAlloc(M * 8);
    auto *f64 = (double *)GmAlloc(M * 8);
    const uint32_t outBytes = (BLOCKS * 8 + BLOCKS * N) * 8;
    auto *out = (int64_t *)GmAlloc(outBytes);
    for (uint32_t i = 0; i < M; ++i) {
        i32[i] = static_cast<int32_t>(i * 2654435761u);
        f32[i] = static_cast<float>(i % 101) * 0.5f - 20.0f;
        u8[i] = static_cast<uint8_t>(i * 37);
        f16[i] = half(static_cast<float>(i % 89) * 0.25f - 10.0f);
        i64[i] = static_cast<int64_t>(i) * 0x100000001LL - 77;
        f64[i] = static_cast<double>(i) * 1.25 - 3.0;
    }
    for (uint32_t i = 0; i < BLOCKS * N; ++i) {
        i8[i] = static_cast<int8_t>(i * 13);
        i16[i] = static_cast<int16_t>(i * 1013);
    }
    for (uint32_t i = 0; i < outBytes / 8; ++i) out[i] = 0;
    SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(scalar_types, BLOCKS, (uint8_t *)i32, (uint8_t *)f32, (uint8_t *)u8, (uint8_t *)f16, (uint8_t *)i8,
                (uint8_t *)i16, (uint8_t *)i64, (uint8_t *)f64, (uint8_t *)out);
    uint32_t bad = 0;
    auto check = [&](bool ok, const char *what, uint32_t i) {
        if (!ok && bad++ < 10) std::printf("wrong %s at %u\n", what, i);
    };
    for (uint32_t b = 0; b < BLOCKS; ++b) {
        const uint32_t o = b * 2 * N;
        int64_t s8 = 0, s16 = 0;
        for (uint32_t i = 0; i < N; ++i) {
            const uint32_t j = N - 1 - i;
            check(i32[o + N + i] == static_cast<int32_t>(static_cast<uint32_t>(i32[o + i]) * 3u +
                                                         static_cast<uint32_t>(i32[o + j])), "int32", i);
            check(f32[o + N + i] == f32[o + i] * 3.0f + f32[o + j], "float", i);
            check(u8[o + N + i] == static_cast<uint8_t>(u8[o + i] * 3 + u8[o + j]), "uint8", i);
            check(static_cast<float>(f16[o + N + i]) ==
                      static_cast<float>(half(static_cast<float>(f16[o + i]) + static_cast<float>(f16[o + j]))),
                  "half", i);
            check(i64[o + N + i] == static_cast<int64_t>(static_cast<uint64_t>(i64[o + i]) * 3u +
                                                         static_cast<uint64_t>(i64[o + j])), "int64", i);
            check(f64[o + N + i] == f64[o + i] * 3.0 + f64[o + j], "double", i);
            s8 += i8[b * N + i];
            s16 += i16[b * N + i];
            check(reinterpret_cast<int16_t *>(out)[(BLOCKS * 8 + b * N) * 4 + i] == -7, "int16 const", i);
            if (i >= N / 2)
                check(reinterpret_cast<int32_t *>(out)[(BLOCKS * 8 + b * N) * 2 + i] == -3, "int32 imm", i);
        }
        check(out[b * 8 + 0] == s8, "int8 sum", b);
        check(out[b * 8 + 1] == s16, "int16 sum", b);
        check(out[b * 8 + 2] == static_cast<int64_t>(N) * (0x12345 + b), "UB int32 sum", b);
        check(out[b * 8 + 3] == static_cast<int64_t>(N) * (0xA5 + b), "UB uint8 sum", b);
        check(out[b * 8 + 4] == 0x7e57, "int64 imm", b);
    }
    std::printf(bad == 0 ? "PASS\n" : "FAIL: %u wrong\n", bad);
    return bad == 0 ? 0 : 1;
}
