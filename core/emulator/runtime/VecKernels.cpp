// SPDX-License-Identifier: MIT
// Contiguous vector kernels: the arithmetic of every element-wise op, per dtype (Cast and the element
// conversions are in VecCast.cpp). half and bfloat16 compute in float (for + - * / sqrt the float result
// rounded once to 16 bits is the correctly rounded 16-bit result). The common ops of half and float run on
// the host's SIMD unit when the CPU has AVX2 and F16C (VecSimd.h: the same bits as the scalar path); chunks
// of half are converted in bulk with F16C for the others.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "VecSimd.h"
#include "kwb_sim/runtime.h"

namespace kwb_sim {

namespace {
constexpr std::size_t kChunk = 1024;

void h2f(const void* src, float* d, std::size_t n) {
  simd::halfToFloat(simd::simdEnabled(), static_cast<const std::uint16_t*>(src), d, n);
}
void f2h(const float* s, void* dst, std::size_t n) {
  simd::floatToHalf(simd::simdEnabled(), s, static_cast<std::uint16_t*>(dst), n);
}
void b2f(const void* src, float* d, std::size_t n) {
  const auto* s = static_cast<const std::uint16_t*>(src);
  for (std::size_t i = 0; i < n; ++i) d[i] = bfloat16::toFloat(s[i]);
}
void f2b(const float* s, void* dst, std::size_t n) {
  auto* d = static_cast<std::uint16_t*>(dst);
  for (std::size_t i = 0; i < n; ++i) d[i] = bfloat16::fromFloat(s[i]);
}

// Float arithmetic of one op over n elements (out may alias a or b).
void floatBinary(VOp op, float* out, const float* a, const float* b, std::size_t n) {
  switch (op) {
    case VOp::Add:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
      break;
    case VOp::Sub:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] - b[i];
      break;
    case VOp::Mul:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
      break;
    case VOp::Div:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] / b[i];
      break;
    case VOp::Max:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] > b[i] ? a[i] : b[i];
      break;
    case VOp::Min:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] < b[i] ? a[i] : b[i];
      break;
    default:
      break;
  }
}
void floatUnary(VOp op, float* out, const float* a, float s, std::size_t n) {
  switch (op) {
    case VOp::Adds:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + s;
      break;
    case VOp::Muls:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] * s;
      break;
    case VOp::Maxs:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] > s ? a[i] : s;
      break;
    case VOp::Mins:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] < s ? a[i] : s;
      break;
    case VOp::LeakyRelu:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] >= 0.0f ? a[i] : a[i] * s;
      break;
    case VOp::Exp:
      for (std::size_t i = 0; i < n; ++i) out[i] = std::exp(a[i]);
      break;
    case VOp::Ln:
      for (std::size_t i = 0; i < n; ++i) out[i] = std::log(a[i]);
      break;
    case VOp::Abs:
      for (std::size_t i = 0; i < n; ++i) out[i] = std::fabs(a[i]);
      break;
    case VOp::Sqrt:
      for (std::size_t i = 0; i < n; ++i) out[i] = std::sqrt(a[i]);
      break;
    case VOp::Rsqrt:
      for (std::size_t i = 0; i < n; ++i) out[i] = 1.0f / std::sqrt(a[i]);
      break;
    case VOp::Reciprocal:
      for (std::size_t i = 0; i < n; ++i) out[i] = 1.0f / a[i];
      break;
    case VOp::Relu:
      for (std::size_t i = 0; i < n; ++i) out[i] = a[i] > 0.0f ? a[i] : 0.0f;
      break;
    case VOp::Neg:
      for (std::size_t i = 0; i < n; ++i) out[i] = -a[i];
      break;
    case VOp::Copy:
      if (out != a) std::memmove(out, a, n * sizeof(float));
      break;
    case VOp::Dup:
      for (std::size_t i = 0; i < n; ++i) out[i] = s;
      break;
    default:
      break;
  }
}

template <typename I>
I wrap(std::int64_t v) {
  return static_cast<I>(static_cast<std::uint64_t>(v));
}
template <typename I>
void intBinary(VOp op, I* out, const I* a, const I* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    // int8 lanes are signed: the sign extension is the arithmetic the hardware does on them.
    // NOLINTNEXTLINE(bugprone-signed-char-misuse)
    const auto x = static_cast<std::int64_t>(a[i]), y = static_cast<std::int64_t>(b[i]);
    switch (op) {
      case VOp::Add:
        out[i] = wrap<I>(x + y);
        break;
      case VOp::Sub:
        out[i] = wrap<I>(x - y);
        break;
      case VOp::Mul:
        out[i] = wrap<I>(x * y);
        break;
      case VOp::Div:
        out[i] = y == 0 ? I{0} : wrap<I>(x / y);
        break;
      case VOp::Max:
        out[i] = x > y ? a[i] : b[i];
        break;
      case VOp::Min:
        out[i] = x < y ? a[i] : b[i];
        break;
      case VOp::And:
        out[i] = static_cast<I>(a[i] & b[i]);
        break;
      case VOp::Or:
        out[i] = static_cast<I>(a[i] | b[i]);
        break;
      default:
        break;
    }
  }
}
// Shifts by a scalar count (0..63 after the caller's range check): left and unsigned right shifts are
// logical, a signed right shift is arithmetic; ShiftRightRound adds the last bit shifted out (roundEn).
template <typename I>
I shiftOne(VOp op, I v, std::int64_t s) {
  using U = std::make_unsigned_t<I>;
  const unsigned sh = s < 0 ? 0u : (s > 63 ? 63u : static_cast<unsigned>(s));
  if (op == VOp::ShiftLeft)
    return static_cast<I>(static_cast<U>(static_cast<std::uint64_t>(static_cast<U>(v)) << sh));
  if constexpr (std::is_signed_v<I>) {
    // int8 lanes are signed: the sign extension is the arithmetic the hardware does on them.
    // NOLINTNEXTLINE(bugprone-signed-char-misuse)
    const auto x = static_cast<std::int64_t>(v);
    std::int64_t r = x >> sh;
    if (op == VOp::ShiftRightRound && sh > 0) r += (x >> (sh - 1)) & 1;
    return static_cast<I>(r);
  } else {
    return static_cast<I>(static_cast<std::uint64_t>(v) >> sh);
  }
}
template <typename I>
void intUnary(VOp op, I* out, const I* a, double sd, std::size_t n) {
  const std::int64_t s = static_cast<std::int64_t>(sd);
  for (std::size_t i = 0; i < n; ++i) {
    // int8 lanes are signed: the sign extension is the arithmetic the hardware does on them.
    // NOLINTNEXTLINE(bugprone-signed-char-misuse)
    const auto x = static_cast<std::int64_t>(a[i]);
    switch (op) {
      case VOp::Adds:
        out[i] = wrap<I>(x + s);
        break;
      case VOp::Muls:
        out[i] = wrap<I>(x * s);
        break;
      case VOp::Maxs:
        out[i] = wrap<I>(x > s ? x : s);
        break;
      case VOp::Mins:
        out[i] = wrap<I>(x < s ? x : s);
        break;
      case VOp::Relu:
        out[i] = wrap<I>(x > 0 ? x : 0);
        break;
      case VOp::Abs:
        out[i] = wrap<I>(x < 0 ? -x : x);
        break;
      case VOp::Neg:
        out[i] = wrap<I>(-x);
        break;
      case VOp::Not:
        out[i] = static_cast<I>(~a[i]);
        break;
      case VOp::ShiftLeft:
      case VOp::ShiftRight:
      case VOp::ShiftRightRound:
        out[i] = shiftOne<I>(op, a[i], s);
        break;
      case VOp::Copy:
        out[i] = a[i];
        break;
      case VOp::Dup:
        out[i] = wrap<I>(s);
        break;
      default:
        out[i] = a[i];
        break;
    }
  }
}

using ToF = void (*)(const void*, float*, std::size_t);
using FromF = void (*)(const float*, void*, std::size_t);

void f32in(const void* s, float* d, std::size_t n) {
  std::memcpy(d, s, n * 4);
}
void f32out(const float* s, void* d, std::size_t n) {
  std::memcpy(d, s, n * 4);
}

bool floatLike(DType dt, ToF& in, FromF& out) {
  switch (dt) {
    case DType::F16:
      in = h2f;
      out = f2h;
      return true;
    case DType::BF16:
      in = b2f;
      out = f2b;
      return true;
    case DType::F32:
      in = f32in;
      out = f32out;
      return true;
    default:
      return false;
  }
}
}  // namespace

void vecBinary(VOp op, DType dt, void* dst, const void* a, const void* b, std::size_t n) {
  ToF in;
  FromF out;
  if (dt == DType::F16 &&
      simd::halfBinary(simd::simdEnabled(), op, static_cast<std::uint16_t*>(dst),
                       static_cast<const std::uint16_t*>(a), static_cast<const std::uint16_t*>(b), n))
    return;
  if (dt == DType::F32 && simd::floatBinary(simd::simdEnabled(), op, static_cast<float*>(dst),
                                            static_cast<const float*>(a), static_cast<const float*>(b), n))
    return;
  if (dt == DType::F32)
    return floatBinary(op, static_cast<float*>(dst), static_cast<const float*>(a),
                       static_cast<const float*>(b), n);
  if (floatLike(dt, in, out)) {
    // Zeroed: the analyzer cannot see that the conversion through a function pointer fills them.
    float fa[kChunk] = {}, fb[kChunk] = {};
    const std::size_t es = dtypeSize(dt);
    for (std::size_t i = 0; i < n; i += kChunk) {
      const std::size_t m = n - i < kChunk ? n - i : kChunk;
      in(static_cast<const char*>(a) + i * es, fa, m);
      in(static_cast<const char*>(b) + i * es, fb, m);
      floatBinary(op, fa, fa, fb, m);
      out(fa, static_cast<char*>(dst) + i * es, m);
    }
    return;
  }
  switch (dt) {
    case DType::I16:
      return intBinary(op, static_cast<std::int16_t*>(dst), static_cast<const std::int16_t*>(a),
                       static_cast<const std::int16_t*>(b), n);
    case DType::U16:
      return intBinary(op, static_cast<std::uint16_t*>(dst), static_cast<const std::uint16_t*>(a),
                       static_cast<const std::uint16_t*>(b), n);
    case DType::I32:
      return intBinary(op, static_cast<std::int32_t*>(dst), static_cast<const std::int32_t*>(a),
                       static_cast<const std::int32_t*>(b), n);
    case DType::U32:
      return intBinary(op, static_cast<std::uint32_t*>(dst), static_cast<const std::uint32_t*>(a),
                       static_cast<const std::uint32_t*>(b), n);
    case DType::I8:
      return intBinary(op, static_cast<std::int8_t*>(dst), static_cast<const std::int8_t*>(a),
                       static_cast<const std::int8_t*>(b), n);
    case DType::U8:
      return intBinary(op, static_cast<std::uint8_t*>(dst), static_cast<const std::uint8_t*>(a),
                       static_cast<const std::uint8_t*>(b), n);
    case DType::I64:
      return intBinary(op, static_cast<std::int64_t*>(dst), static_cast<const std::int64_t*>(a),
                       static_cast<const std::int64_t*>(b), n);
    default:
      return;
  }
}

void vecScalar(VOp op, DType dt, void* dst, const void* a, double scalar, std::size_t n) {
  ToF in;
  FromF out;
  if (a && dt == DType::F16 &&
      simd::halfScalar(simd::simdEnabled(), op, static_cast<std::uint16_t*>(dst),
                       static_cast<const std::uint16_t*>(a), static_cast<float>(scalar), n))
    return;
  if (a && dt == DType::F32 &&
      simd::floatScalar(simd::simdEnabled(), op, static_cast<float*>(dst), static_cast<const float*>(a),
                        static_cast<float>(scalar), n))
    return;
  if (floatLike(dt, in, out)) {
    float fa[kChunk] = {};
    const std::size_t es = dtypeSize(dt);
    const float s = static_cast<float>(scalar);
    for (std::size_t i = 0; i < n; i += kChunk) {
      const std::size_t m = n - i < kChunk ? n - i : kChunk;
      if (a) in(static_cast<const char*>(a) + i * es, fa, m);
      floatUnary(op, fa, fa, s, m);
      out(fa, static_cast<char*>(dst) + i * es, m);
    }
    return;
  }
  const void* src = a ? a : dst;
  switch (dt) {
    case DType::I16:
      return intUnary(op, static_cast<std::int16_t*>(dst), static_cast<const std::int16_t*>(src), scalar, n);
    case DType::U16:
      return intUnary(op, static_cast<std::uint16_t*>(dst), static_cast<const std::uint16_t*>(src), scalar,
                      n);
    case DType::I32:
      return intUnary(op, static_cast<std::int32_t*>(dst), static_cast<const std::int32_t*>(src), scalar, n);
    case DType::U32:
      return intUnary(op, static_cast<std::uint32_t*>(dst), static_cast<const std::uint32_t*>(src), scalar,
                      n);
    case DType::I8:
      return intUnary(op, static_cast<std::int8_t*>(dst), static_cast<const std::int8_t*>(src), scalar, n);
    case DType::U8:
      return intUnary(op, static_cast<std::uint8_t*>(dst), static_cast<const std::uint8_t*>(src), scalar, n);
    case DType::I64:
      return intUnary(op, static_cast<std::int64_t*>(dst), static_cast<const std::int64_t*>(src), scalar, n);
    case DType::U64:
      return intUnary(op, static_cast<std::uint64_t*>(dst), static_cast<const std::uint64_t*>(src), scalar,
                      n);
    default:
      return;
  }
}

void vecUnary(VOp op, DType dt, void* dst, const void* a, std::size_t n) {
  vecScalar(op, dt, dst, a, 0.0, n);
}

void vecAxpy(DType dt, void* dst, const void* a, const void* acc, double scalar, std::size_t n) {
  ToF in;
  FromF out;
  if (!floatLike(dt, in, out)) return;
  const float s = static_cast<float>(scalar);
  if (dt == DType::F32) {
    auto* d = static_cast<float*>(dst);
    const auto* x = static_cast<const float*>(a);
    const auto* y = static_cast<const float*>(acc);
    for (std::size_t i = 0; i < n; ++i) d[i] = x[i] * s + y[i];
    return;
  }
  // Zeroed: the analyzer cannot see that the conversion through a function pointer fills them.
  float fa[kChunk] = {}, fb[kChunk] = {};
  const std::size_t es = dtypeSize(dt);
  for (std::size_t i = 0; i < n; i += kChunk) {
    const std::size_t m = n - i < kChunk ? n - i : kChunk;
    in(static_cast<const char*>(a) + i * es, fa, m);
    in(static_cast<const char*>(acc) + i * es, fb, m);
    for (std::size_t k = 0; k < m; ++k) fa[k] = fa[k] * s + fb[k];
    out(fa, static_cast<char*>(dst) + i * es, m);
  }
}

}  // namespace kwb_sim
