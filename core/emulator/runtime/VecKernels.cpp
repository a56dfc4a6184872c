// SPDX-License-Identifier: MIT
// Contiguous vector kernels: the arithmetic of every element-wise op and of Cast, per dtype. half and
// bfloat16 compute in float (for + - * / sqrt the float result rounded once to 16 bits is the correctly
// rounded 16-bit result). The common ops of half and float run on the host's SIMD unit when the CPU has
// AVX2 and F16C (VecSimd.h: the same bits as the scalar path); chunks of half are converted in bulk with
// F16C for the others.

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

double loadAsDouble(DType dt, const void* p) {
  switch (dt) {
    case DType::F16: {
      std::uint16_t b;
      std::memcpy(&b, p, 2);
      return half::toFloat(b);
    }
    case DType::BF16: {
      std::uint16_t b;
      std::memcpy(&b, p, 2);
      return bfloat16::toFloat(b);
    }
    case DType::F32: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case DType::F64: {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
    case DType::I8:
      return *static_cast<const std::int8_t*>(p);
    case DType::U8:
      return *static_cast<const std::uint8_t*>(p);
    case DType::I16: {
      std::int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case DType::U16: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case DType::I32: {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case DType::U32: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case DType::I64: {
      std::int64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
    case DType::U64: {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
    case DType::None:
      break;
  }
  return 0;
}

namespace {
template <typename I>
void storeInt(void* p, double v) {
  I out;
  if (std::isnan(v))
    out = 0;
  else if (v <= static_cast<double>(std::numeric_limits<I>::min()))
    out = std::numeric_limits<I>::min();
  else if (v >= static_cast<double>(std::numeric_limits<I>::max()))
    out = std::numeric_limits<I>::max();
  else
    out = static_cast<I>(v);
  std::memcpy(p, &out, sizeof(I));
}
}  // namespace

void storeFromDouble(DType dt, void* p, double v) {
  switch (dt) {
    case DType::F16: {
      const std::uint16_t b = half(v).bits();
      std::memcpy(p, &b, 2);
      return;
    }
    case DType::BF16: {
      const std::uint16_t b = bfloat16(v).bits();
      std::memcpy(p, &b, 2);
      return;
    }
    case DType::F32: {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      return;
    }
    case DType::F64:
      std::memcpy(p, &v, 8);
      return;
    case DType::I8:
      return storeInt<std::int8_t>(p, v);
    case DType::U8:
      return storeInt<std::uint8_t>(p, v);
    case DType::I16:
      return storeInt<std::int16_t>(p, v);
    case DType::U16:
      return storeInt<std::uint16_t>(p, v);
    case DType::I32:
      return storeInt<std::int32_t>(p, v);
    case DType::U32:
      return storeInt<std::uint32_t>(p, v);
    case DType::I64:
      return storeInt<std::int64_t>(p, v);
    case DType::U64:
      return storeInt<std::uint64_t>(p, v);
    case DType::None:
      return;
  }
}

namespace {
// Neighbours of a 16-bit float value given by its bits (sign-magnitude ordering).
std::uint16_t step16(std::uint16_t b, bool up) {
  const bool neg = (b & 0x8000u) != 0;
  const std::uint16_t mag = b & 0x7fffu;
  if (mag == 0) return up ? 0x0001 : 0x8001;
  if (up != neg) return static_cast<std::uint16_t>(b + 1);
  return static_cast<std::uint16_t>(b - 1);
}

// Rounds v to the float-like dtype dt with the given RoundMode (0 none/1 rint: nearest-even, 2 floor,
// 3 ceil, 4 round: nearest, ties away, 5 trunc, 6 odd) and stores it.
void storeRounded(DType dt, void* p, double v, int mode) {
  if (dt == DType::F32) {
    float c = static_cast<float>(v);
    if (!std::isnan(v) && static_cast<double>(c) != v && mode >= 2) {
      const float lo = static_cast<double>(c) > v ? std::nextafter(c, -INFINITY) : c;
      const float hi = static_cast<double>(c) > v ? c : std::nextafter(c, INFINITY);
      switch (mode) {
        case 2:
          c = lo;
          break;
        case 3:
          c = hi;
          break;
        case 5:
          c = v > 0 ? lo : hi;
          break;
        case 4: {
          const double dl = v - lo, dh = hi - v;
          c = dl < dh ? lo : dh < dl ? hi : (v > 0 ? hi : lo);
          break;
        }
        case 6: {
          std::uint32_t bl;
          std::memcpy(&bl, &lo, 4);
          c = (bl & 1u) ? lo : hi;
          break;
        }
        default:
          break;
      }
    }
    std::memcpy(p, &c, 4);
    return;
  }
  std::uint16_t c = dt == DType::F16 ? half(v).bits() : bfloat16(v).bits();
  auto val = [&](std::uint16_t b) -> double {
    return dt == DType::F16 ? half::toFloat(b) : bfloat16::toFloat(b);
  };
  if (!std::isnan(v) && val(c) != v && mode >= 2 && std::isfinite(val(c))) {
    const std::uint16_t lo = val(c) > v ? step16(c, false) : c;
    const std::uint16_t hi = val(c) > v ? c : step16(c, true);
    switch (mode) {
      case 2:
        c = lo;
        break;
      case 3:
        c = hi;
        break;
      case 5:
        c = v > 0 ? lo : hi;
        break;
      case 4: {
        const double dl = v - val(lo), dh = val(hi) - v;
        c = dl < dh ? lo : dh < dl ? hi : (v > 0 ? hi : lo);
        break;
      }
      case 6:
        c = (lo & 1u) ? lo : hi;
        break;
      default:
        break;
    }
  }
  std::memcpy(p, &c, 2);
}

double roundInteger(double v, int mode) {
  switch (mode) {
    case 2:
      return std::floor(v);
    case 3:
      return std::ceil(v);
    case 4:
      return std::round(v);
    case 5:
      return std::trunc(v);
    default:
      return std::nearbyint(v);  // none / rint / odd: nearest even
  }
}
bool isFloatType(DType d) {
  return d == DType::F16 || d == DType::BF16 || d == DType::F32 || d == DType::F64;
}
}  // namespace

void vecCast(DType dstT, DType srcT, int roundMode, void* dst, const void* src, std::size_t n) {
  const std::size_t ds = dtypeSize(dstT), ss = dtypeSize(srcT);
  if (srcT == DType::F16 && dstT == DType::F32) return h2f(src, static_cast<float*>(dst), n);
  if (srcT == DType::F32 && dstT == DType::F16 && roundMode <= 1) {
    return f2h(static_cast<const float*>(src), dst, n);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double v = loadAsDouble(srcT, static_cast<const char*>(src) + i * ss);
    char* out = static_cast<char*>(dst) + i * ds;
    if (isFloatType(dstT)) {
      if (dstT == srcT && dstT == DType::F32) {  // float -> float: round to an integral value
        const float f = static_cast<float>(roundInteger(v, roundMode));
        std::memcpy(out, &f, 4);
      } else {
        storeRounded(dstT, out, v, roundMode);
      }
    } else {
      storeFromDouble(dstT, out, isFloatType(srcT) ? roundInteger(v, roundMode) : v);
    }
  }
}

}  // namespace kwb_sim
