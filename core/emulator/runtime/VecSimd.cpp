// SPDX-License-Identifier: MIT
// See VecSimd.h. Every operation is written once as a lane function for floats (scalar) and once for
// __m256 (8 lanes); the loops that apply them are templates on the op, so the op's switch runs once per
// call, not once per element. Half operands are widened, computed and narrowed in registers, 8 at a time,
// without a round trip through a float buffer.

#include "VecSimd.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace kwb_sim::simd {

namespace {

// ------------------------------------------------------------------------------------------- scalar

// When an operand of + - * / is a NaN the result is that NaN, quieted; with two NaNs, the first one.
// The hardware instruction would give one or the other depending on the order the compiler chose for
// the operands (it treats + and * as commutative), so both paths fix the rule explicitly.
float quieted(float nan) {
  std::uint32_t u;
  std::memcpy(&u, &nan, 4);
  u |= 0x00400000u;
  std::memcpy(&nan, &u, 4);
  return nan;
}
float withNanOfOperands(float r, float a, float b) {
  if (std::isnan(a)) return quieted(a);
  if (std::isnan(b)) return quieted(b);
  return r;
}

template <VOp Op>
float scalarBinary(float a, float b) {
  if constexpr (Op == VOp::Add) return withNanOfOperands(a + b, a, b);
  if constexpr (Op == VOp::Sub) return withNanOfOperands(a - b, a, b);
  if constexpr (Op == VOp::Mul) return withNanOfOperands(a * b, a, b);
  if constexpr (Op == VOp::Div) return withNanOfOperands(a / b, a, b);
  if constexpr (Op == VOp::Max) return a > b ? a : b;
  if constexpr (Op == VOp::Min) return a < b ? a : b;
  return a;
}

template <VOp Op>
float scalarWithScalar(float a, float s) {
  if constexpr (Op == VOp::Adds) return withNanOfOperands(a + s, a, s);
  if constexpr (Op == VOp::Muls) return withNanOfOperands(a * s, a, s);
  if constexpr (Op == VOp::Maxs) return a > s ? a : s;
  if constexpr (Op == VOp::Mins) return a < s ? a : s;
  if constexpr (Op == VOp::LeakyRelu) return a >= 0.0f ? a : withNanOfOperands(a * s, a, s);
  if constexpr (Op == VOp::Relu) return a > 0.0f ? a : 0.0f;
  if constexpr (Op == VOp::Abs) return std::fabs(a);
  if constexpr (Op == VOp::Neg) return -a;
  if constexpr (Op == VOp::Sqrt) return std::sqrt(a);
  if constexpr (Op == VOp::Reciprocal) return 1.0f / a;
  if constexpr (Op == VOp::Rsqrt) return 1.0f / std::sqrt(a);
  return a;
}

// ------------------------------------------------------------------------------------------ AVX2/F16C

#if defined(__x86_64__)
#define KWB_SIMD_TARGET __attribute__((target("avx2,f16c")))

// The same operations on 8 lanes. maxps/minps return their second operand when the comparison is false
// (a NaN included), which is exactly `a > b ? a : b` / `a < b ? a : b`.
// withNanOfOperands on 8 lanes.
KWB_SIMD_TARGET inline __m256 withNanOfOperands8(__m256 r, __m256 a, __m256 b) {
  const __m256 quietBit = _mm256_castsi256_ps(_mm256_set1_epi32(0x00400000));
  r = _mm256_blendv_ps(r, _mm256_or_ps(b, quietBit), _mm256_cmp_ps(b, b, _CMP_UNORD_Q));
  return _mm256_blendv_ps(r, _mm256_or_ps(a, quietBit), _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
}

template <VOp Op>
KWB_SIMD_TARGET inline __m256 vectorBinary(__m256 a, __m256 b) {
  if constexpr (Op == VOp::Add) return withNanOfOperands8(_mm256_add_ps(a, b), a, b);
  if constexpr (Op == VOp::Sub) return withNanOfOperands8(_mm256_sub_ps(a, b), a, b);
  if constexpr (Op == VOp::Mul) return withNanOfOperands8(_mm256_mul_ps(a, b), a, b);
  if constexpr (Op == VOp::Div) return withNanOfOperands8(_mm256_div_ps(a, b), a, b);
  if constexpr (Op == VOp::Max) return _mm256_max_ps(a, b);
  if constexpr (Op == VOp::Min) return _mm256_min_ps(a, b);
  return a;
}

template <VOp Op>
KWB_SIMD_TARGET inline __m256 vectorWithScalar(__m256 a, __m256 s) {
  if constexpr (Op == VOp::Adds) return withNanOfOperands8(_mm256_add_ps(a, s), a, s);
  if constexpr (Op == VOp::Muls) return withNanOfOperands8(_mm256_mul_ps(a, s), a, s);
  if constexpr (Op == VOp::Maxs) return _mm256_max_ps(a, s);
  if constexpr (Op == VOp::Mins) return _mm256_min_ps(a, s);
  if constexpr (Op == VOp::LeakyRelu) {
    // a >= 0 ? a : a * s; an unordered compare (NaN) is false and takes a * s, as the scalar form does.
    const __m256 ge = _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_GE_OQ);
    return _mm256_blendv_ps(withNanOfOperands8(_mm256_mul_ps(a, s), a, s), a, ge);
  }
  if constexpr (Op == VOp::Relu) return _mm256_max_ps(a, _mm256_setzero_ps());
  if constexpr (Op == VOp::Abs) return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a);
  if constexpr (Op == VOp::Neg) return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f));
  if constexpr (Op == VOp::Sqrt) return _mm256_sqrt_ps(a);
  if constexpr (Op == VOp::Reciprocal) return _mm256_div_ps(_mm256_set1_ps(1.0f), a);
  if constexpr (Op == VOp::Rsqrt) return _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(a));
  return a;
}

KWB_SIMD_TARGET inline __m256 load8h(const std::uint16_t* p) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
KWB_SIMD_TARGET inline void store8h(std::uint16_t* p, __m256 v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
}

// The tails (n % 8 elements) go through a zero-padded 8-lane register too, so every element of a call
// takes the same path.
template <VOp Op>
KWB_SIMD_TARGET void halfBinaryAvx(std::uint16_t* d, const std::uint16_t* a, const std::uint16_t* b,
                                   std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) store8h(d + i, vectorBinary<Op>(load8h(a + i), load8h(b + i)));
  if (i < n) {
    std::uint16_t ta[8] = {}, tb[8] = {}, td[8];
    std::memcpy(ta, a + i, (n - i) * 2);
    std::memcpy(tb, b + i, (n - i) * 2);
    store8h(td, vectorBinary<Op>(load8h(ta), load8h(tb)));
    std::memcpy(d + i, td, (n - i) * 2);
  }
}
template <VOp Op>
KWB_SIMD_TARGET void floatBinaryAvx(float* d, const float* a, const float* b, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(d + i, vectorBinary<Op>(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
  if (i < n) {
    float ta[8] = {}, tb[8] = {}, td[8];
    std::memcpy(ta, a + i, (n - i) * 4);
    std::memcpy(tb, b + i, (n - i) * 4);
    _mm256_storeu_ps(td, vectorBinary<Op>(_mm256_loadu_ps(ta), _mm256_loadu_ps(tb)));
    std::memcpy(d + i, td, (n - i) * 4);
  }
}
template <VOp Op>
KWB_SIMD_TARGET void halfScalarAvx(std::uint16_t* d, const std::uint16_t* a, float s, std::size_t n) {
  const __m256 vs = _mm256_set1_ps(s);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) store8h(d + i, vectorWithScalar<Op>(load8h(a + i), vs));
  if (i < n) {
    std::uint16_t ta[8] = {}, td[8];
    std::memcpy(ta, a + i, (n - i) * 2);
    store8h(td, vectorWithScalar<Op>(load8h(ta), vs));
    std::memcpy(d + i, td, (n - i) * 2);
  }
}
template <VOp Op>
KWB_SIMD_TARGET void floatScalarAvx(float* d, const float* a, float s, std::size_t n) {
  const __m256 vs = _mm256_set1_ps(s);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, vectorWithScalar<Op>(_mm256_loadu_ps(a + i), vs));
  if (i < n) {
    float ta[8] = {}, td[8];
    std::memcpy(ta, a + i, (n - i) * 4);
    _mm256_storeu_ps(td, vectorWithScalar<Op>(_mm256_loadu_ps(ta), vs));
    std::memcpy(d + i, td, (n - i) * 4);
  }
}
KWB_SIMD_TARGET void halfToFloatAvx(const std::uint16_t* s, float* d, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, load8h(s + i));
  for (; i < n; ++i) d[i] = _cvtsh_ss(s[i]);
}
KWB_SIMD_TARGET void floatToHalfAvx(const float* s, std::uint16_t* d, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) store8h(d + i, _mm256_loadu_ps(s + i));
  for (; i < n; ++i) d[i] = static_cast<std::uint16_t>(_cvtss_sh(s[i], _MM_FROUND_TO_NEAREST_INT));
}
#undef KWB_SIMD_TARGET
#endif

// ------------------------------------------------------------------------------------------- scalar

template <VOp Op>
void halfBinaryScalar(std::uint16_t* d, const std::uint16_t* a, const std::uint16_t* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    d[i] = half::fromFloat(scalarBinary<Op>(half::toFloat(a[i]), half::toFloat(b[i])));
}
template <VOp Op>
void floatBinaryScalar(float* d, const float* a, const float* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) d[i] = scalarBinary<Op>(a[i], b[i]);
}
template <VOp Op>
void halfScalarScalar(std::uint16_t* d, const std::uint16_t* a, float s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) d[i] = half::fromFloat(scalarWithScalar<Op>(half::toFloat(a[i]), s));
}
template <VOp Op>
void floatScalarScalar(float* d, const float* a, float s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) d[i] = scalarWithScalar<Op>(a[i], s);
}

// ------------------------------------------------------------------------------------------ dispatch

template <VOp Op>
void binaryOf(bool simd, std::uint16_t* d, const std::uint16_t* a, const std::uint16_t* b, std::size_t n) {
#if defined(__x86_64__)
  if (simd) return halfBinaryAvx<Op>(d, a, b, n);
#endif
  (void)simd;
  halfBinaryScalar<Op>(d, a, b, n);
}
template <VOp Op>
void binaryOf(bool simd, float* d, const float* a, const float* b, std::size_t n) {
#if defined(__x86_64__)
  if (simd) return floatBinaryAvx<Op>(d, a, b, n);
#endif
  (void)simd;
  floatBinaryScalar<Op>(d, a, b, n);
}
template <VOp Op>
void withScalarOf(bool simd, std::uint16_t* d, const std::uint16_t* a, float s, std::size_t n) {
#if defined(__x86_64__)
  if (simd) return halfScalarAvx<Op>(d, a, s, n);
#endif
  (void)simd;
  halfScalarScalar<Op>(d, a, s, n);
}
template <VOp Op>
void withScalarOf(bool simd, float* d, const float* a, float s, std::size_t n) {
#if defined(__x86_64__)
  if (simd) return floatScalarAvx<Op>(d, a, s, n);
#endif
  (void)simd;
  floatScalarScalar<Op>(d, a, s, n);
}

template <typename T>
bool binaryDispatch(bool simd, VOp op, T* d, const T* a, const T* b, std::size_t n) {
  switch (op) {
    case VOp::Add:
      return binaryOf<VOp::Add>(simd, d, a, b, n), true;
    case VOp::Sub:
      return binaryOf<VOp::Sub>(simd, d, a, b, n), true;
    case VOp::Mul:
      return binaryOf<VOp::Mul>(simd, d, a, b, n), true;
    case VOp::Div:
      return binaryOf<VOp::Div>(simd, d, a, b, n), true;
    case VOp::Max:
      return binaryOf<VOp::Max>(simd, d, a, b, n), true;
    case VOp::Min:
      return binaryOf<VOp::Min>(simd, d, a, b, n), true;
    default:
      return false;
  }
}

template <typename T>
bool scalarDispatch(bool simd, VOp op, T* d, const T* a, float s, std::size_t n) {
  switch (op) {
    case VOp::Adds:
      return withScalarOf<VOp::Adds>(simd, d, a, s, n), true;
    case VOp::Muls:
      return withScalarOf<VOp::Muls>(simd, d, a, s, n), true;
    case VOp::Maxs:
      return withScalarOf<VOp::Maxs>(simd, d, a, s, n), true;
    case VOp::Mins:
      return withScalarOf<VOp::Mins>(simd, d, a, s, n), true;
    case VOp::LeakyRelu:
      return withScalarOf<VOp::LeakyRelu>(simd, d, a, s, n), true;
    case VOp::Relu:
      return withScalarOf<VOp::Relu>(simd, d, a, s, n), true;
    case VOp::Abs:
      return withScalarOf<VOp::Abs>(simd, d, a, s, n), true;
    case VOp::Neg:
      return withScalarOf<VOp::Neg>(simd, d, a, s, n), true;
    case VOp::Sqrt:
      return withScalarOf<VOp::Sqrt>(simd, d, a, s, n), true;
    case VOp::Reciprocal:
      return withScalarOf<VOp::Reciprocal>(simd, d, a, s, n), true;
    case VOp::Rsqrt:
      return withScalarOf<VOp::Rsqrt>(simd, d, a, s, n), true;
    default:
      return false;
  }
}

}  // namespace

bool cpuHasAvx2F16c() {
#if defined(__x86_64__)
  // F16C from CPUID leaf 1 (ECX bit 29): not every compiler's __builtin_cpu_supports knows "f16c".
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __builtin_cpu_supports("avx2") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 &&
           (ecx & bit_F16C) != 0;
  }();
  return has;
#else
  return false;
#endif
}

bool simdEnabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("KWB_SIM_SIMD");
    return cpuHasAvx2F16c() && !(v && std::strcmp(v, "off") == 0);
  }();
  return enabled;
}

void halfToFloat(bool simd, const std::uint16_t* src, float* dst, std::size_t n) {
#if defined(__x86_64__)
  if (simd) return halfToFloatAvx(src, dst, n);
#endif
  (void)simd;
  for (std::size_t i = 0; i < n; ++i) dst[i] = half::toFloat(src[i]);
}

void floatToHalf(bool simd, const float* src, std::uint16_t* dst, std::size_t n) {
#if defined(__x86_64__)
  if (simd) return floatToHalfAvx(src, dst, n);
#endif
  (void)simd;
  for (std::size_t i = 0; i < n; ++i) dst[i] = half::fromFloat(src[i]);
}

bool halfBinary(bool simd, VOp op, std::uint16_t* dst, const std::uint16_t* a, const std::uint16_t* b,
                std::size_t n) {
  return binaryDispatch(simd, op, dst, a, b, n);
}
bool floatBinary(bool simd, VOp op, float* dst, const float* a, const float* b, std::size_t n) {
  return binaryDispatch(simd, op, dst, a, b, n);
}
bool halfScalar(bool simd, VOp op, std::uint16_t* dst, const std::uint16_t* a, float s, std::size_t n) {
  return scalarDispatch(simd, op, dst, a, s, n);
}
bool floatScalar(bool simd, VOp op, float* dst, const float* a, float s, std::size_t n) {
  return scalarDispatch(simd, op, dst, a, s, n);
}

}  // namespace kwb_sim::simd
