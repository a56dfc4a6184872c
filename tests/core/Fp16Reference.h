// SPDX-License-Identifier: MIT
#pragma once
// Shared by the kwb_sim::half / kwb_sim::bfloat16 tests (Fp16ConversionTest.cpp, Fp16ArithmeticTest.cpp):
// an obviously-correct reference for the two 16-bit formats. The value is scaled by a power of two (exact
// in double) so that the representable neighbours are consecutive integers, then rounded to nearest with
// ties to even by hand and encoded field by field. Where g++ offers _Float16 (x86-64, g++ >= 12),
// libgcc's conversions are a second, independent oracle.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace kwb_fp16_test {

#if defined(__FLT16_MANT_DIG__)
#define KWB_TEST_HAVE_FLOAT16 1
__extension__ typedef _Float16 Float16Oracle;
inline std::uint16_t oracleHalf(float f) {
  const Float16Oracle h = static_cast<Float16Oracle>(f);
  std::uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
inline std::uint16_t oracleHalf(double d) {
  const Float16Oracle h = static_cast<Float16Oracle>(d);
  std::uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
inline float oracleHalfToFloat(std::uint16_t b) {
  Float16Oracle h;
  std::memcpy(&h, &b, 2);
  return static_cast<float>(h);
}
#else
#define KWB_TEST_HAVE_FLOAT16 0
#endif

struct Format {
  int digits;    // precision p, implicit bit included
  int emin;      // exponent of the smallest normal
  int emax;      // exponent of the largest finite
  int mantBits;  // p - 1
  std::uint16_t inf;
};
inline constexpr Format kHalf{11, -14, 15, 10, 0x7c00};
inline constexpr Format kBf16{8, -126, 127, 7, 0x7f80};

// Correctly rounded encoding of a finite (or infinite) double in the format; not for NaN.
inline std::uint16_t refRound(double v, const Format& fmt) {
  const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::fabs(v);
  if (std::isinf(a)) return static_cast<std::uint16_t>(sign | fmt.inf);
  if (a == 0.0) return sign;
  int e2 = 0;
  (void)std::frexp(a, &e2);  // a = m * 2^e2, m in [0.5, 1): floor(log2 a) = e2 - 1
  int exponent = std::max(e2 - 1, fmt.emin);
  const double quantum = std::ldexp(1.0, exponent - (fmt.digits - 1));
  const double n = a / quantum;  // exact: a power-of-two scaling
  double k = std::floor(n);
  const double frac = n - k;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(k, 2.0) == 1.0)) k += 1.0;
  const double top = std::ldexp(1.0, fmt.digits);
  const double lead = std::ldexp(1.0, fmt.digits - 1);
  if (k == top) {
    k = lead;
    exponent += 1;
  }
  if (k < lead) return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(k));  // subnormal
  if (exponent > fmt.emax) return static_cast<std::uint16_t>(sign | fmt.inf);
  const int bias = -fmt.emin + 1;
  const unsigned field = static_cast<unsigned>(exponent + bias);
  return static_cast<std::uint16_t>(sign | (field << fmt.mantBits) | static_cast<unsigned>(k - lead));
}

// Exact value of a finite or infinite pattern; not for NaN.
inline double refDecode(std::uint16_t bits, const Format& fmt) {
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  const unsigned expMask = (fmt.inf >> fmt.mantBits);
  const unsigned field = (bits & 0x7fffu) >> fmt.mantBits;
  const unsigned mant = bits & ((1u << fmt.mantBits) - 1u);
  if (field == expMask) return sign * std::numeric_limits<double>::infinity();
  const int bias = -fmt.emin + 1;
  if (field == 0) return sign * std::ldexp(static_cast<double>(mant), fmt.emin - fmt.mantBits);
  return sign * std::ldexp(static_cast<double>(mant + (1u << fmt.mantBits)),
                           static_cast<int>(field) - bias - fmt.mantBits);
}

inline bool isNanBits(std::uint16_t b, const Format& fmt) {
  return (b & 0x7fffu) > fmt.inf;
}
inline bool isQuietNanBits(std::uint16_t b, const Format& fmt) {
  return isNanBits(b, fmt) && (b & (1u << (fmt.mantBits - 1))) != 0;
}

inline float floatFromBits(std::uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
inline std::uint32_t bitsOfFloat(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}
inline double doubleFromBits(std::uint64_t x) {
  double d;
  std::memcpy(&d, &x, 8);
  return d;
}
inline std::uint64_t bitsOfDouble(double d) {
  std::uint64_t x;
  std::memcpy(&x, &d, 8);
  return x;
}

inline std::string hex(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", v);
  return buf;
}

// Random floats: half uniform over all bit patterns, half concentrated where the 16-bit format lives
// (exponents from below its subnormals to above its overflow threshold).
inline float randomFloat(std::mt19937_64& rng, int lowExp, int highExp) {
  const std::uint64_t r = rng();
  if (r & 1u) return floatFromBits(static_cast<std::uint32_t>(r >> 32));
  const int span = highExp - lowExp + 1;
  const int e = lowExp + static_cast<int>((r >> 1) % static_cast<std::uint64_t>(span));
  const std::uint32_t mant = static_cast<std::uint32_t>(r >> 40) & 0x7fffffu;
  const std::uint32_t sign = static_cast<std::uint32_t>((r >> 20) & 1u) << 31;
  return floatFromBits(sign | (static_cast<std::uint32_t>(e + 127) << 23) | mant);
}

}  // namespace kwb_fp16_test
