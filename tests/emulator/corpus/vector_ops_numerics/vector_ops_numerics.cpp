// Runs every basic vector op on half and on float over 2048 values each (negatives, tiny, large,
// moderate) and checks each result against a double-precision reference within the dtype's tolerance:
// correctly rounded ops within rtol (half 1e-3, float 1e-6), transcendental ones within 4 ulp. Casts
// are checked bit-exactly. Prints one table row per op and dtype, then PASS or FAIL.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 2048;
enum VectorOp : uint32_t {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MAX, OP_MIN, OP_ADDS, OP_MULS, OP_MAXS, OP_MINS, OP_EXP, OP_LN, OP_ABS,
    OP_SQRT, OP_RSQRT, OP_RECIPROCAL, OP_RELU, OP_LEAKY_RELU, OP_DUPLICATE, OP_COUNT
};
constexpr float ADDS_SCALAR = 1.5f;
constexpr float MULS_SCALAR = 0.75f;
constexpr float MAXS_SCALAR = 0.25f;
constexpr float MINS_SCALAR = -0.5f;
constexpr float LEAKY_SLOPE = 0.1f;  // tiny * slope stays a normal half (no subnormal results anywhere)
constexpr float DUP_SCALAR = 3.25f;

// Input layout per dtype: a (general), b (moderate, non-zero), p (positive), e (exp domain), N each.
template <typename T>
class KernelVectorOps {
public:
    __aicore__ inline KernelVectorOps() {}
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out)
    {
        inGm.SetGlobalBuffer((__gm__ T *)in, 4 * N);
        outGm.SetGlobalBuffer((__gm__ T *)out, OP_COUNT * N);
        pipe.InitBuffer(inQueueA, 1, N * sizeof(T));
        pipe.InitBuffer(inQueueB, 1, N * sizeof(T));
        pipe.InitBuffer(inQueueP, 1, N * sizeof(T));
        pipe.InitBuffer(inQueueE, 1, N * sizeof(T));
        pipe.InitBuffer(outQueue, 2, N * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> a = Load(inQueueA, 0);
        LocalTensor<T> b = Load(inQueueB, 1);
        LocalTensor<T> p = Load(inQueueP, 2);
        LocalTensor<T> e = Load(inQueueE, 3);
        for (uint32_t op = 0; op < OP_COUNT; op++) {
            LocalTensor<T> dst = outQueue.AllocTensor<T>();
            switch (op) {
                case OP_ADD: Add(dst, a, b, N); break;
                case OP_SUB: Sub(dst, a, b, N); break;
                case OP_MUL: Mul(dst, a, b, N); break;
                case OP_DIV: Div(dst, a, p, N); break;
                case OP_MAX: Max(dst, a, b, N); break;
                case OP_MIN: Min(dst, a, b, N); break;
                case OP_ADDS: Adds(dst, a, static_cast<T>(ADDS_SCALAR), N); break;
                case OP_MULS: Muls(dst, a, static_cast<T>(MULS_SCALAR), N); break;
                case OP_MAXS: Maxs(dst, a, static_cast<T>(MAXS_SCALAR), N); break;
                case OP_MINS: Mins(dst, a, static_cast<T>(MINS_SCALAR), N); break;
                case OP_EXP: Exp(dst, e, N); break;
                case OP_LN: Ln(dst, p, N); break;
                case OP_ABS: Abs(dst, a, N); break;
                case OP_SQRT: Sqrt(dst, p, N); break;
                case OP_RSQRT: Rsqrt(dst, p, N); break;
                case OP_RECIPROCAL: Reciprocal(dst, p, N); break;
                case OP_RELU: Relu(dst, a, N); break;
                case OP_LEAKY_RELU: LeakyRelu(dst, a, static_cast<T>(LEAKY_SLOPE), N); break;
                default: Duplicate(dst, static_cast<T>(DUP_SCALAR), N); break;
            }
            outQueue.EnQue(dst);
            LocalTensor<T> res = outQueue.DeQue<T>();
            DataCopy(outGm[op * N], res, N);
            outQueue.FreeTensor(res);
        }
        inQueueA.FreeTensor(a);
        inQueueB.FreeTensor(b);
        inQueueP.FreeTensor(p);
        inQueueE.FreeTensor(e);
    }

private:
    __aicore__ inline LocalTensor<T> Load(TQue<QuePosition::VECIN, 1> &que, uint32_t index)
    {
        LocalTensor<T> t = que.AllocTensor<T>();
        DataCopy(t, inGm[index * N], N);
        que.EnQue(t);
        return que.DeQue<T>();
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueA, inQueueB, inQueueP, inQueueE;
    TQue<QuePosition::VECOUT, 2> outQueue;
    GlobalTensor<T> inGm;
    GlobalTensor<T> outGm;
};

extern "C" __global__ __aicore__ void vector_ops_half(GM_ADDR in, GM_ADDR out)
{
    KernelVectorOps<half> op;
    op.Init(in, out);
    op.Process();
}

extern "C" __global__ __aicore__ void vector_ops_float(GM_ADDR in, GM_ADDR out)
{
    KernelVectorOps<float> op;
    op.Init(in, out);
    op.Process();
}

// Casts: half -> float (CAST_NONE), float -> half (CAST_RINT), float -> int32 (CAST_RINT, CAST_FLOOR).
extern "C" __global__ __aicore__ void vector_ops_cast(GM_ADDR inHalf, GM_ADDR inFloat, GM_ADDR outF32, GM_ADDR outF16,
                                                     GM_ADDR outRint, GM_ADDR outFloor)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueH, inQueueF;
    TQue<QuePosition::VECOUT, 1> outQueueF32, outQueueF16, outQueueRint, outQueueFloor;
    GlobalTensor<half> inHalfGm, outF16Gm;
    GlobalTensor<float> inFloatGm, outF32Gm;
    GlobalTensor<int32_t> outRintGm, outFloorGm;
    inHalfGm.SetGlobalBuffer((__gm__ half *)inHalf, N);
    inFloatGm.SetGlobalBuffer((__gm__ float *)inFloat, N);
    outF32Gm.SetGlobalBuffer((__gm__ float *)outF32, N);
    outF16Gm.SetGlobalBuffer((__gm__ half *)outF16, N);
    outRintGm.SetGlobalBuffer((__gm__ int32_t *)outRint, N);
    outFloorGm.SetGlobalBuffer((__gm__ int32_t *)outFloor, N);
    pipe.InitBuffer(inQueueH, 1, N * sizeof(half));
    pipe.InitBuffer(inQueueF, 1, N * sizeof(float));
    pipe.InitBuffer(outQueueF32, 1, N * sizeof(float));
    pipe.InitBuffer(outQueueF16, 1, N * sizeof(half));
    pipe.InitBuffer(outQueueRint, 1, N * sizeof(int32_t));
    pipe.InitBuffer(outQueueFloor, 1, N * sizeof(int32_t));

    LocalTensor<half> hIn = inQueueH.AllocTensor<half>();
    LocalTensor<float> fIn = inQueueF.AllocTensor<float>();
    DataCopy(hIn, inHalfGm, N);
    DataCopy(fIn, inFloatGm, N);
    inQueueH.EnQue(hIn);
    inQueueF.EnQue(fIn);
    hIn = inQueueH.DeQue<half>();
    fIn = inQueueF.DeQue<float>();

    LocalTensor<float> f32 = outQueueF32.AllocTensor<float>();
    LocalTensor<half> f16 = outQueueF16.AllocTensor<half>();
    LocalTensor<int32_t> rint = outQueueRint.AllocTensor<int32_t>();
    LocalTensor<int32_t> floorLocal = outQueueFloor.AllocTensor<int32_t>();
    Cast(f32, hIn, RoundMode::CAST_NONE, N);
    Cast(f16, fIn, RoundMode::CAST_RINT, N);
    Cast(rint, fIn, RoundMode::CAST_RINT, N);
    Cast(floorLocal, fIn, RoundMode::CAST_FLOOR, N);
    outQueueF32.EnQue(f32);
    outQueueF16.EnQue(f16);
    outQueueRint.EnQue(rint);
    outQueueFloor.EnQue(floorLocal);
    inQueueH.FreeTensor(hIn);
    inQueueF.FreeTensor(fIn);

    f32 = outQueueF32.DeQue<float>();
    f16 = outQueueF16.DeQue<half>();
    rint = outQueueRint.DeQue<int32_t>();
    floorLocal = outQueueFloor.DeQue<int32_t>();
    DataCopy(outF32Gm, f32, N);
    DataCopy(outF16Gm, f16, N);
    DataCopy(outRintGm, rint, N);
    DataCopy(outFloorGm, floorLocal, N);
    outQueueF32.FreeTensor(f32);
    outQueueF16.FreeTensor(f16);
    outQueueRint.FreeTensor(rint);
    outQueueFloor.FreeTensor(floorLocal);
}

// ------------------------------------------------------------------------------------------------ host

struct DtypeInfo {
    const char *name;
    int digits;  // precision including the implicit bit
    int emin;    // exponent of the smallest normal
    double rtol; // correctly rounded ops
};
constexpr DtypeInfo HALF_INFO{"half", 11, -14, 1e-3};
constexpr DtypeInfo FLOAT_INFO{"float", 24, -126, 1e-6};

static double Ulp(double x, const DtypeInfo &info)
{
    int exp2 = 0;
    (void)std::frexp(x, &exp2);
    int e = (x == 0.0 || exp2 - 1 < info.emin) ? info.emin : exp2 - 1;
    return std::ldexp(1.0, e - (info.digits - 1));
}

// Round to nearest even at the dtype's precision (normal range).
static double RoundTo(double v, const DtypeInfo &info)
{
    if (v == 0.0) return v;
    double q = Ulp(v, info);
    double n = v / q;
    double k = std::floor(n);
    double frac = n - k;
    if (frac > 0.5 || (frac == 0.5 && std::fmod(k, 2.0) != 0.0)) k += 1.0;
    return k * q;
}

template <typename T>
static double D(T v)
{
    return static_cast<double>(static_cast<float>(v));
}

// Deterministic inputs, rounded to T; returns them as doubles too.
template <typename T>
static void MakeInputs(T *in, std::vector<double> &vals, bool isHalf)
{
    uint32_t state = isHalf ? 2024u : 4202u;
    auto next = [&state]() {
        state = state * 1103515245u + 12345u;
        return static_cast<double>((state >> 8) & 0xffffffu) / 16777216.0;  // [0, 1)
    };
    vals.assign(4 * N, 0.0);
    for (uint32_t i = 0; i < N; i++) {
        double sign = (i & 1u) ? -1.0 : 1.0;
        double a;
        switch (i % 4) {
            case 0: a = next() * 200.0 - 100.0; break;                            // general
            case 1: a = sign * (2e-3 + next() * 8e-3); break;                     // tiny
            case 2: a = sign * (1000.0 + next() * 7000.0); break;                 // large
            default: a = (static_cast<double>(i % 16) - 8.0) * 0.5; break;        // exact halves, ties for rint
        }
        double b = ((i / 2) & 1u ? -1.0 : 1.0) * (0.5 + next() * 3.5);
        double p = 0.25 + next() * 15.75;
        double e = isHalf ? next() * 16.0 - 8.0 : next() * 60.0 - 30.0;
        const double src[4] = {a, b, p, e};
        for (uint32_t k = 0; k < 4; k++) {
            in[k * N + i] = static_cast<T>(static_cast<float>(src[k]));
            vals[k * N + i] = D(in[k * N + i]);
        }
    }
}

struct OpCheck {
    const char *name;
    bool transcendental;
};
static const OpCheck OPS[OP_COUNT] = {
    {"Add", false}, {"Sub", false}, {"Mul", false}, {"Div", false}, {"Max", false}, {"Min", false},
    {"Adds", false}, {"Muls", false}, {"Maxs", false}, {"Mins", false}, {"Exp", true}, {"Ln", true},
    {"Abs", false}, {"Sqrt", false}, {"Rsqrt", true}, {"Reciprocal", true}, {"Relu", false},
    {"LeakyRelu", false}, {"Duplicate", false},
};

template <typename T>
static bool CheckOps(const T *out, const std::vector<double> &v, const DtypeInfo &info)
{
    const double adds = D(static_cast<T>(ADDS_SCALAR));
    const double muls = D(static_cast<T>(MULS_SCALAR));
    const double maxs = D(static_cast<T>(MAXS_SCALAR));
    const double mins = D(static_cast<T>(MINS_SCALAR));
    const double slope = D(static_cast<T>(LEAKY_SLOPE));
    const double dup = D(static_cast<T>(DUP_SCALAR));
    bool allOk = true;
    for (uint32_t op = 0; op < OP_COUNT; op++) {
        double maxRel = 0.0;
        double maxUlp = 0.0;
        uint32_t bad = 0;
        for (uint32_t i = 0; i < N; i++) {
            const double a = v[i], b = v[N + i], p = v[2 * N + i], e = v[3 * N + i];
            double ref = 0.0;
            switch (op) {
                case OP_ADD: ref = a + b; break;
                case OP_SUB: ref = a - b; break;
                case OP_MUL: ref = a * b; break;
                case OP_DIV: ref = a / p; break;
                case OP_MAX: ref = a > b ? a : b; break;
                case OP_MIN: ref = a < b ? a : b; break;
                case OP_ADDS: ref = a + adds; break;
                case OP_MULS: ref = a * muls; break;
                case OP_MAXS: ref = a > maxs ? a : maxs; break;
                case OP_MINS: ref = a < mins ? a : mins; break;
                case OP_EXP: ref = std::exp(e); break;
                case OP_LN: ref = std::log(p); break;
                case OP_ABS: ref = std::fabs(a); break;
                case OP_SQRT: ref = std::sqrt(p); break;
                case OP_RSQRT: ref = 1.0 / std::sqrt(p); break;
                case OP_RECIPROCAL: ref = 1.0 / p; break;
                case OP_RELU: ref = a > 0.0 ? a : 0.0; break;
                case OP_LEAKY_RELU: ref = a >= 0.0 ? a : a * slope; break;
                default: ref = dup; break;
            }
            const double got = D(out[op * N + i]);
            const double err = std::fabs(got - ref);
            const double rel = ref != 0.0 ? err / std::fabs(ref) : err;
            const double ulps = err / Ulp(RoundTo(ref, info), info);
            if (!(rel <= maxRel)) maxRel = rel;
            if (!(ulps <= maxUlp)) maxUlp = ulps;
            const bool ok = OPS[op].transcendental ? (ulps <= 4.0) : (err <= info.rtol * std::fabs(ref));
            if (!ok) {
                if (bad < 3) {
                    std::printf("  %s %s[%u]: inputs a=%.9g b=%.9g p=%.9g e=%.9g expected %.9g actual %.9g\n",
                                OPS[op].name, info.name, i, a, b, p, e, ref, got);
                }
                bad++;
            }
        }
        std::printf("%-11s %-6s max rel err %-10.3g max ulp %-8.3g tol %-13s %s\n", OPS[op].name, info.name, maxRel,
                    maxUlp, OPS[op].transcendental ? "4 ulp" : (info.digits == 11 ? "rel 1e-3" : "rel 1e-6"),
                    bad == 0 ? "PASS" : "FAIL");
        allOk = allOk && bad == 0;
    }
    return allOk;
}

int main()
{
    const size_t halfInBytes = 4 * N * sizeof(half);
    const size_t floatInBytes = 4 * N * sizeof(float);
    uint8_t *inH = (uint8_t *)AscendC::GmAlloc(halfInBytes);
    uint8_t *inF = (uint8_t *)AscendC::GmAlloc(floatInBytes);
    uint8_t *outH = (uint8_t *)AscendC::GmAlloc(OP_COUNT * N * sizeof(half));
    uint8_t *outF = (uint8_t *)AscendC::GmAlloc(OP_COUNT * N * sizeof(float));
    uint8_t *castF32 = (uint8_t *)AscendC::GmAlloc(N * sizeof(float));
    uint8_t *castF16 = (uint8_t *)AscendC::GmAlloc(N * sizeof(half));
    uint8_t *castRint = (uint8_t *)AscendC::GmAlloc(N * sizeof(int32_t));
    uint8_t *castFloor = (uint8_t *)AscendC::GmAlloc(N * sizeof(int32_t));
    std::vector<double> halfVals;
    std::vector<double> floatVals;
    MakeInputs(reinterpret_cast<half *>(inH), halfVals, true);
    MakeInputs(reinterpret_cast<float *>(inF), floatVals, false);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(vector_ops_half, 1, inH, outH);
    ICPU_RUN_KF(vector_ops_float, 1, inF, outF);
    ICPU_RUN_KF(vector_ops_cast, 1, inH, inF, castF32, castF16, castRint, castFloor);

    bool ok = CheckOps(reinterpret_cast<const half *>(outH), halfVals, HALF_INFO);
    ok = CheckOps(reinterpret_cast<const float *>(outF), floatVals, FLOAT_INFO) && ok;

    // Casts are exact operations: every element must match bit for bit (as values).
    const half *hIn = reinterpret_cast<const half *>(inH);
    const float *fIn = reinterpret_cast<const float *>(inF);
    const float *f32 = reinterpret_cast<const float *>(castF32);
    const half *f16 = reinterpret_cast<const half *>(castF16);
    const int32_t *rint = reinterpret_cast<const int32_t *>(castRint);
    const int32_t *floorOut = reinterpret_cast<const int32_t *>(castFloor);
    uint32_t badCast[4] = {0, 0, 0, 0};
    for (uint32_t i = 0; i < N; i++) {
        const double h = D(hIn[i]);
        const double f = fIn[i];
        const bool wrong[4] = {static_cast<double>(f32[i]) != h, D(f16[i]) != RoundTo(f, HALF_INFO),
                               static_cast<double>(rint[i]) != std::nearbyint(f),
                               static_cast<double>(floorOut[i]) != std::floor(f)};
        for (uint32_t k = 0; k < 4; k++) {
            if (wrong[k] && badCast[k]++ < 3) {
                std::printf("  Cast[%u]: half %.9g -> %.9g, float %.9g -> half %.9g, rint %d, floor %d\n", i, h,
                            f32[i], f, D(f16[i]), rint[i], floorOut[i]);
            }
        }
    }
    const char *castNames[4] = {"half->float CAST_NONE", "float->half CAST_RINT", "float->int32 CAST_RINT",
                                "float->int32 CAST_FLOOR"};
    for (uint32_t k = 0; k < 4; k++) {
        std::printf("Cast %-23s mismatches %-6u exact       %s\n", castNames[k], badCast[k], badCast[k] == 0 ? "PASS" : "FAIL");
        ok = ok && badCast[k] == 0;
    }

    AscendC::GmFree((void *)inH);
    AscendC::GmFree((void *)inF);
    AscendC::GmFree((void *)outH);
    AscendC::GmFree((void *)outF);
    AscendC::GmFree((void *)castF32);
    AscendC::GmFree((void *)castF16);
    AscendC::GmFree((void *)castRint);
    AscendC::GmFree((void *)castFloor);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
