// Numerics of kwb_sim::half and kwb_sim::bfloat16 against an obviously-correct reference: the value is
// scaled by a power of two (exact in double) so that the representable neighbours are consecutive
// integers, then rounded to nearest with ties to even by hand and encoded field by field. Where g++
// offers _Float16 (x86-64, g++ >= 12), libgcc's conversions are a second, independent oracle.
//
// Exhaustive float -> half over all 2^32 patterns takes minutes in a Debug build (measured: about 8 min
// at -O2 with the soft-float _Float16 oracle, 11 s with F16C), so the default tests cover every 16-bit
// pattern, every midpoint between neighbours and its float/double neighbours, and 10M random floats;
// the exhaustive run is kept as a DISABLED_ test (--gtest_also_run_disabled_tests).

#include "core/emulator/include/kwb_sim/fp16.h"
#include "core/process/ProcessRunner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <unistd.h>

using kwb_sim::bfloat16;
using kwb_sim::half;

namespace {

#if defined(__FLT16_MANT_DIG__)
#define KWB_TEST_HAVE_FLOAT16 1
__extension__ typedef _Float16 Float16Oracle;
std::uint16_t oracleHalf(float f) {
  const Float16Oracle h = static_cast<Float16Oracle>(f);
  std::uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
std::uint16_t oracleHalf(double d) {
  const Float16Oracle h = static_cast<Float16Oracle>(d);
  std::uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
float oracleHalfToFloat(std::uint16_t b) {
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
constexpr Format kHalf{11, -14, 15, 10, 0x7c00};
constexpr Format kBf16{8, -126, 127, 7, 0x7f80};

// Correctly rounded encoding of a finite (or infinite) double in the format; not for NaN.
std::uint16_t refRound(double v, const Format& fmt) {
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
double refDecode(std::uint16_t bits, const Format& fmt) {
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

bool isNanBits(std::uint16_t b, const Format& fmt) { return (b & 0x7fffu) > fmt.inf; }
bool isQuietNanBits(std::uint16_t b, const Format& fmt) {
  return isNanBits(b, fmt) && (b & (1u << (fmt.mantBits - 1))) != 0;
}

float floatFromBits(std::uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
std::uint32_t bitsOfFloat(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}
double doubleFromBits(std::uint64_t x) {
  double d;
  std::memcpy(&d, &x, 8);
  return d;
}
std::uint64_t bitsOfDouble(double d) {
  std::uint64_t x;
  std::memcpy(&x, &d, 8);
  return x;
}

std::string hex(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", v);
  return buf;
}

// Checks one float against the reference (and _Float16 for half); returns false on mismatch.
bool checkFloatToHalf(float f, std::string* why) {
  const std::uint16_t got = half(f).bits();
  if (std::isnan(f)) {
    if (!isQuietNanBits(got, kHalf)) {
      *why = "NaN " + hex(bitsOfFloat(f) >> 16) + " -> " + hex(got);
      return false;
    }
    return true;
  }
  const std::uint16_t want = refRound(static_cast<double>(f), kHalf);
  if (got != want) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "float %.9g (0x%08x): got 0x%04x want 0x%04x", static_cast<double>(f),
                  bitsOfFloat(f), got, want);
    *why = buf;
    return false;
  }
#if KWB_TEST_HAVE_FLOAT16
  if (oracleHalf(f) != want) {
    *why = "reference and _Float16 disagree on " + std::to_string(f);
    return false;
  }
#endif
  return true;
}

bool checkFloatToBf16(float f, std::string* why) {
  const std::uint16_t got = bfloat16(f).bits();
  if (std::isnan(f)) {
    if (!isQuietNanBits(got, kBf16)) {
      *why = "NaN -> " + hex(got);
      return false;
    }
    return true;
  }
  const std::uint16_t want = refRound(static_cast<double>(f), kBf16);
  if (got != want) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "float %.9g (0x%08x): got 0x%04x want 0x%04x", static_cast<double>(f),
                  bitsOfFloat(f), got, want);
    *why = buf;
    return false;
  }
  return true;
}

// Random floats: half uniform over all bit patterns, half concentrated where the 16-bit format lives
// (exponents from below its subnormals to above its overflow threshold).
float randomFloat(std::mt19937_64& rng, int lowExp, int highExp) {
  const std::uint64_t r = rng();
  if (r & 1u) return floatFromBits(static_cast<std::uint32_t>(r >> 32));
  const int span = highExp - lowExp + 1;
  const int e = lowExp + static_cast<int>((r >> 1) % static_cast<std::uint64_t>(span));
  const std::uint32_t mant = static_cast<std::uint32_t>(r >> 40) & 0x7fffffu;
  const std::uint32_t sign = static_cast<std::uint32_t>((r >> 20) & 1u) << 31;
  return floatFromBits(sign | (static_cast<std::uint32_t>(e + 127) << 23) | mant);
}

}  // namespace

// ------------------------------------------------------------------------------------ type properties

TEST(Fp16Types, LayoutAndTraits) {
  static_assert(sizeof(half) == 2 && sizeof(bfloat16) == 2);
  static_assert(alignof(half) == 2 && alignof(bfloat16) == 2);
  static_assert(std::is_trivially_copyable_v<half> && std::is_trivially_copyable_v<bfloat16>);
  static_assert(std::is_trivially_default_constructible_v<half>);
  static_assert(std::is_standard_layout_v<half> && std::is_standard_layout_v<bfloat16>);
  static_assert(std::is_convertible_v<half, float> && std::is_convertible_v<float, half>);
  static_assert(std::is_convertible_v<double, half> && std::is_convertible_v<int, half>);
  static_assert(!std::is_convertible_v<bfloat16, half> && std::is_constructible_v<half, bfloat16>);
  // Mixed expressions widen like the usual arithmetic conversions.
  static_assert(std::is_same_v<decltype(half{} + half{}), half>);
  static_assert(std::is_same_v<decltype(half{} + 1.0f), float>);
  static_assert(std::is_same_v<decltype(2.0 * half{}), double>);
  static_assert(std::is_same_v<decltype(half{} - 3), float>);
  static_assert(std::is_same_v<decltype(bfloat16{} / bfloat16{}), bfloat16>);
  static_assert(std::is_same_v<decltype(half{} < 1.0f), bool>);
  SUCCEED();
}

#if KWB_SIM_FP16_BIT_CAST_CONSTEXPR
TEST(Fp16Types, ConversionsAreConstexpr) {
  static_assert(half(1.0f).bits() == 0x3c00);
  static_assert(half(-2.0).bits() == 0xc000);
  static_assert(half(65504.0f).bits() == 0x7bff);
  static_assert(half(65520.0f).bits() == 0x7c00);
  static_assert(half(5.9604644775390625e-08).bits() == 0x0001);
  static_assert(float(half::fromBits(0x3555)) == 0.333251953125f);
  static_assert(bfloat16(1.0f).bits() == 0x3f80);
  static_assert(float(bfloat16::fromBits(0xc0a0)) == -5.0f);
  static_assert(float(half(1.5f) * half(3)) == 4.5f);
  constexpr half third = half(1.0f) / half(3.0f);
  static_assert(third.bits() == 0x3555);
  SUCCEED();
}
#endif

// --------------------------------------------------------------------------------------------- half

TEST(Fp16Half, EveryPatternDecodesExactlyAndRoundTrips) {
  for (unsigned u = 0; u < 65536; ++u) {
    const auto b = static_cast<std::uint16_t>(u);
    const half h = half::fromBits(b);
    const float f = h;
    ASSERT_EQ(h.bits(), b);
    if (isNanBits(b, kHalf)) {
      ASSERT_TRUE(std::isnan(f)) << hex(u);
      ASSERT_TRUE(h.isNan() && kwb_sim::isnan(h));
      ASSERT_TRUE(isQuietNanBits(half(f).bits(), kHalf)) << hex(u);
      ASSERT_TRUE(isQuietNanBits(half(static_cast<double>(f)).bits(), kHalf)) << hex(u);
      ASSERT_EQ(half(f).bits() & 0x8000u, b & 0x8000u) << "NaN sign kept for " << hex(u);
      continue;
    }
    ASSERT_EQ(static_cast<double>(f), refDecode(b, kHalf)) << hex(u);
#if KWB_TEST_HAVE_FLOAT16
    ASSERT_EQ(bitsOfFloat(f), bitsOfFloat(oracleHalfToFloat(b))) << hex(u);
#endif
    ASSERT_EQ(half(f).bits(), b) << hex(u);
    ASSERT_EQ(half(static_cast<double>(f)).bits(), b) << hex(u);
    ASSERT_EQ(h.isInf(), std::isinf(f));
    ASSERT_EQ(h.isFinite(), std::isfinite(f));
    ASSERT_EQ(h.signBit(), std::signbit(f));
    ASSERT_EQ((-h).bits(), b ^ 0x8000u);
  }
}

TEST(Fp16Half, MidpointsTieToEvenAndNeighboursRoundAway) {
  // Every pair of adjacent non-negative finite halves, plus (max, 2^16) which decides the overflow.
  for (unsigned u = 0; u <= 0x7bff; ++u) {
    const double lo = refDecode(static_cast<std::uint16_t>(u), kHalf);
    const double hi = (u == 0x7bff) ? 65536.0 : refDecode(static_cast<std::uint16_t>(u + 1), kHalf);
    const double mid = (lo + hi) / 2;  // exact
    const unsigned even = (u % 2 == 0) ? u : u + 1;
    for (const double sign : {1.0, -1.0}) {
      const unsigned s = sign < 0 ? 0x8000u : 0u;
      const float midF = static_cast<float>(sign * mid);
      ASSERT_EQ(static_cast<double>(midF), sign * mid) << "midpoint not exact in float";
      ASSERT_EQ(half(midF).bits(), s | even) << "float tie at " << hex(u);
      ASSERT_EQ(half(sign * mid).bits(), s | even) << "double tie at " << hex(u);
      const float aboveF = std::nextafter(midF, static_cast<float>(sign) * INFINITY);
      const float belowF = std::nextafter(midF, 0.0f);
      ASSERT_EQ(half(aboveF).bits(), s | (u + 1)) << "float above midpoint " << hex(u);
      ASSERT_EQ(half(belowF).bits(), s | u) << "float below midpoint " << hex(u);
      // One double ulp off the midpoint: a conversion through float would round to the midpoint
      // first and then tie to even; a single correct rounding must pick the nearer neighbour.
      const double aboveD = std::nextafter(sign * mid, sign * INFINITY);
      const double belowD = std::nextafter(sign * mid, 0.0);
      ASSERT_EQ(half(aboveD).bits(), s | (u + 1)) << "double above midpoint " << hex(u);
      ASSERT_EQ(half(belowD).bits(), s | u) << "double below midpoint " << hex(u);
#if KWB_TEST_HAVE_FLOAT16
      ASSERT_EQ(oracleHalf(aboveD), s | (u + 1));
      ASSERT_EQ(oracleHalf(sign * mid), s | even);
#endif
    }
  }
}

TEST(Fp16Half, SpecialValues) {
  EXPECT_EQ(half(0.0f).bits(), 0x0000);
  EXPECT_EQ(half(-0.0f).bits(), 0x8000);
  EXPECT_EQ(half(INFINITY).bits(), 0x7c00);
  EXPECT_EQ(half(-INFINITY).bits(), 0xfc00);
  EXPECT_EQ(half(std::numeric_limits<double>::infinity()).bits(), 0x7c00);
  EXPECT_EQ(half(1e10f).bits(), 0x7c00);
  EXPECT_EQ(half(-1e300).bits(), 0xfc00);
  EXPECT_EQ(half(65519.996f).bits(), 0x7bff);
  EXPECT_EQ(half(65520.0).bits(), 0x7c00);
  EXPECT_EQ(half(std::ldexp(1.0, -25)).bits(), 0x0000) << "2^-25 ties to even zero";
  EXPECT_EQ(half(std::ldexp(3.0, -26)).bits(), 0x0001);
  EXPECT_EQ(half(std::nextafter(std::ldexp(1.0f, -25), 1.0f)).bits(), 0x0001);
  EXPECT_EQ(half(1e-30f).bits(), 0x0000);
  EXPECT_EQ(half(-1e-300).bits(), 0x8000);
  EXPECT_EQ(half(std::numeric_limits<double>::denorm_min()).bits(), 0x0000);
  EXPECT_EQ(half(std::numeric_limits<float>::denorm_min()).bits(), 0x0000);
  EXPECT_EQ(half(std::ldexp(1023.0, -24)).bits(), 0x03ff) << "largest subnormal";
  EXPECT_EQ(half(std::ldexp(2047.0, -25)).bits(), 0x0400) << "rounds up into the smallest normal";
  // NaNs come out quiet; a signalling float NaN keeps its sign.
  EXPECT_TRUE(isQuietNanBits(half(std::numeric_limits<float>::quiet_NaN()).bits(), kHalf));
  EXPECT_TRUE(isQuietNanBits(half(floatFromBits(0x7f800001u)).bits(), kHalf));
  EXPECT_TRUE(isQuietNanBits(half(floatFromBits(0xffa00000u)).bits(), kHalf));
  EXPECT_EQ(half(floatFromBits(0xffa00000u)).bits() & 0x8000u, 0x8000u);
  EXPECT_TRUE(isQuietNanBits(half(std::numeric_limits<double>::signaling_NaN()).bits(), kHalf));
  EXPECT_TRUE(std::isnan(float(half::fromBits(0x7d00))));
  EXPECT_TRUE(isQuietNanBits(half(float(half::fromBits(0x7d00))).bits(), kHalf));
}

TEST(Fp16Half, TenMillionRandomFloatsMatchReference) {
  std::mt19937_64 rng(0x5eed1234u);
  std::string why;
  int failures = 0;
  for (int i = 0; i < 10'000'000; ++i) {
    const float f = randomFloat(rng, -27, 17);
    if (!checkFloatToHalf(f, &why)) {
      ADD_FAILURE() << why;
      if (++failures > 10) break;
    }
  }
}

TEST(Fp16Half, RandomDoublesNearMidpointsRoundOnce) {
  std::mt19937_64 rng(0xd0b1e5u);
  int failures = 0;
  for (int i = 0; i < 2'000'000 && failures <= 10; ++i) {
    const std::uint64_t r = rng();
    const unsigned u = static_cast<unsigned>(r % 0x7bffu);
    const double lo = refDecode(static_cast<std::uint16_t>(u), kHalf);
    const double hi = refDecode(static_cast<std::uint16_t>(u + 1), kHalf);
    const double mid = ((r >> 20) & 1u ? -1.0 : 1.0) * (lo + hi) / 2;
    // Offsets from 0 to about 2^32 double ulps either way: far below float resolution for most of them.
    const int shift = static_cast<int>((r >> 21) % 33);
    const std::int64_t mag = static_cast<std::int64_t>((r >> 27) & ((std::uint64_t{1} << shift) - 1));
    const std::int64_t offset = ((r >> 60) & 1u) ? -mag : mag;
    const double d = doubleFromBits(bitsOfDouble(mid) + static_cast<std::uint64_t>(offset));
    const std::uint16_t want = refRound(d, kHalf);
    const std::uint16_t got = half(d).bits();
    if (got != want) {
      ++failures;
      ADD_FAILURE() << "double " << d << ": got " << hex(got) << " want " << hex(want);
    }
#if KWB_TEST_HAVE_FLOAT16
    ASSERT_EQ(oracleHalf(d), want) << "reference disagrees with _Float16 at " << d;
#endif
  }
  // And doubles uniformly over all bit patterns (mostly far outside the range: zero, inf, NaN).
  for (int i = 0; i < 1'000'000 && failures <= 10; ++i) {
    const double d = doubleFromBits(rng());
    const std::uint16_t got = half(d).bits();
    if (std::isnan(d)) {
      EXPECT_TRUE(isQuietNanBits(got, kHalf));
      continue;
    }
    if (got != refRound(d, kHalf)) {
      ++failures;
      ADD_FAILURE() << "double " << d << ": got " << hex(got) << " want " << hex(refRound(d, kHalf));
    }
  }
}

TEST(Fp16Half, IntegersRoundCorrectly) {
  EXPECT_EQ(half(0).bits(), 0x0000);
  EXPECT_EQ(half(1).bits(), 0x3c00);
  EXPECT_EQ(half(-3).bits(), 0xc200);
  EXPECT_EQ(float(half(2049)), 2048.0f) << "tie to even";
  EXPECT_EQ(float(half(2051)), 2052.0f) << "tie to even";
  EXPECT_EQ(float(half(2050u)), 2050.0f);
  EXPECT_EQ(float(half(65504LL)), 65504.0f);
  EXPECT_EQ(float(half(65519)), 65504.0f);
  EXPECT_TRUE(half(65520).isInf());
  EXPECT_EQ(half(-70000).bits(), 0xfc00);
  EXPECT_TRUE(half(std::numeric_limits<std::uint64_t>::max()).isInf());
  EXPECT_EQ(half(std::numeric_limits<std::int64_t>::min()).bits(), 0xfc00);
  EXPECT_EQ(float(half(static_cast<short>(-1000))), -1000.0f);
  EXPECT_EQ(float(half(static_cast<unsigned char>(200))), 200.0f);
}

TEST(Fp16Half, ArithmeticIsCorrectlyRoundedBinary16) {
  std::mt19937_64 rng(42);
  int failures = 0;
  for (int i = 0; i < 300'000 && failures <= 10; ++i) {
    const std::uint64_t r = rng();
    const half a = half::fromBits(static_cast<std::uint16_t>(r));
    const half b = half::fromBits(static_cast<std::uint16_t>(r >> 16));
    if (a.isNan() || b.isNan()) continue;
    const double da = float(a), db = float(b);
    // The double results of + - * are exact; the double quotient is rounded, but 53 >= 2*11+2 bits
    // make rounding it again to half innocuous.
    const struct {
      const char* name;
      half got;
      double exact;
    } cases[] = {{"+", a + b, da + db}, {"-", a - b, da - db}, {"*", a * b, da * db}, {"/", a / b, da / db}};
    for (const auto& c : cases) {
      if (std::isnan(c.exact)) {
        if (!c.got.isNan()) {
          ++failures;
          ADD_FAILURE() << float(a) << c.name << float(b) << " should be NaN";
        }
        continue;
      }
      const std::uint16_t want = refRound(c.exact, kHalf);
      if (c.got.bits() != want) {
        ++failures;
        ADD_FAILURE() << hex(a.bits()) << ' ' << c.name << ' ' << hex(b.bits()) << ": got "
                      << hex(c.got.bits()) << " want " << hex(want);
      }
    }
  }
}

TEST(Fp16Half, CompoundMixedAndComparisonOperators) {
  half h = 1.5f;
  h += half(2);
  EXPECT_EQ(float(h), 3.5f);
  h -= 0.5;
  EXPECT_EQ(float(h), 3.0f);
  h *= 3;
  EXPECT_EQ(float(h), 9.0f);
  h /= 2.0f;
  EXPECT_EQ(float(h), 4.5f);
  EXPECT_EQ(float(h++), 4.5f);
  EXPECT_EQ(float(h), 5.5f);
  EXPECT_EQ(float(--h), 4.5f);
  // 2048 + 1 in half arithmetic stays 2048 (ulp 2), but half + int widens to float first.
  half big = 2048;
  EXPECT_EQ(float(big + half(1)), 2048.0f);
  EXPECT_EQ(big + 1, 2049.0f);
  big += 1;
  EXPECT_EQ(float(big), 2048.0f);

  const half nan = std::numeric_limits<half>::quiet_NaN();
  EXPECT_FALSE(nan == nan);
  EXPECT_TRUE(nan != nan);
  EXPECT_FALSE(nan < half(1));
  EXPECT_FALSE(nan >= half(1));
  EXPECT_TRUE(half(0.0f) == half(-0.0f));
  EXPECT_TRUE(half(1) < half(2) && half(2) > half(1) && half(2) >= half(2) && half(1) <= half(2));
  EXPECT_TRUE(half(1) < 1.5f && 1.5 > half(1) && half(2) == 2 && 3 != half(2));
  EXPECT_EQ((-half(0.0f)).bits(), 0x8000);
  EXPECT_EQ(kwb_sim::abs(half(-2.5f)).bits(), half(2.5f).bits());
  const int asInt = static_cast<int>(half(7.75f));
  EXPECT_EQ(asInt, 7);
}

TEST(Fp16Half, NumericLimitsMatchTheFormat) {
  using L = std::numeric_limits<half>;
  static_assert(L::is_specialized && L::is_iec559 && L::has_infinity && L::digits == 11);
  EXPECT_EQ(float(L::max()), 65504.0f);
  EXPECT_EQ(float(L::lowest()), -65504.0f);
  EXPECT_EQ(float(L::min()), std::ldexp(1.0f, -14));
  EXPECT_EQ(float(L::denorm_min()), std::ldexp(1.0f, -24));
  EXPECT_EQ(float(L::epsilon()), std::ldexp(1.0f, -10));
  EXPECT_EQ(float(half(1.0f) + L::epsilon()), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(float(L::round_error()), 0.5f);
  EXPECT_TRUE(L::infinity().isInf());
  EXPECT_TRUE(isQuietNanBits(L::quiet_NaN().bits(), kHalf));
  EXPECT_TRUE(L::signaling_NaN().isNan() && !isQuietNanBits(L::signaling_NaN().bits(), kHalf));
  EXPECT_TRUE(std::isfinite(static_cast<float>(half(std::ldexp(1.0, L::max_exponent - 1)))));
  EXPECT_EQ(float(half(std::ldexp(1.0, L::min_exponent - 1))), float(L::min()));
}

TEST(Fp16Half, BulkConversionsMatchScalar) {
  std::vector<half> halves(65536);
  for (unsigned u = 0; u < 65536; ++u) halves[u] = half::fromBits(static_cast<std::uint16_t>(u));
  std::vector<float> floats(halves.size());
  kwb_sim::halfToFloat(halves.data(), floats.data(), halves.size());
  for (unsigned u = 0; u < 65536; ++u) {
    if (halves[u].isNan()) {
      ASSERT_TRUE(std::isnan(floats[u]));
    } else {
      ASSERT_EQ(bitsOfFloat(floats[u]), bitsOfFloat(float(halves[u]))) << hex(u);
    }
  }
  std::mt19937_64 rng(7);
  std::vector<float> src(100'003);
  for (float& f : src) f = randomFloat(rng, -27, 17);
  std::vector<half> out(src.size());
  kwb_sim::floatToHalf(src.data(), out.data(), src.size());
  for (std::size_t i = 0; i < src.size(); ++i) {
    if (std::isnan(src[i])) {
      ASSERT_TRUE(out[i].isNan());
    } else {
      ASSERT_EQ(out[i].bits(), refRound(static_cast<double>(src[i]), kHalf)) << src[i];
    }
  }
}

// ----------------------------------------------------------------------------------------- bfloat16

TEST(Fp16Bf16, EveryPatternDecodesExactlyAndRoundTrips) {
  for (unsigned u = 0; u < 65536; ++u) {
    const auto b = static_cast<std::uint16_t>(u);
    const bfloat16 v = bfloat16::fromBits(b);
    const float f = v;
    if (isNanBits(b, kBf16)) {
      ASSERT_TRUE(std::isnan(f) && v.isNan()) << hex(u);
      ASSERT_TRUE(isQuietNanBits(bfloat16(f).bits(), kBf16)) << hex(u);
      ASSERT_TRUE(isQuietNanBits(bfloat16(static_cast<double>(f)).bits(), kBf16)) << hex(u);
      continue;
    }
    ASSERT_EQ(static_cast<double>(f), refDecode(b, kBf16)) << hex(u);
    ASSERT_EQ(bitsOfFloat(f), static_cast<std::uint32_t>(u) << 16) << hex(u);
    ASSERT_EQ(bfloat16(f).bits(), b) << hex(u);
    ASSERT_EQ(bfloat16(static_cast<double>(f)).bits(), b) << hex(u);
  }
}

TEST(Fp16Bf16, MidpointsTieToEvenAndNeighboursRoundAway) {
  for (unsigned u = 0; u <= 0x7f7f; ++u) {
    const double lo = refDecode(static_cast<std::uint16_t>(u), kBf16);
    const double hi = (u == 0x7f7f) ? std::ldexp(1.0, 128) : refDecode(static_cast<std::uint16_t>(u + 1), kBf16);
    const double mid = (lo + hi) / 2;
    const unsigned even = (u % 2 == 0) ? u : u + 1;
    for (const double sign : {1.0, -1.0}) {
      const unsigned s = sign < 0 ? 0x8000u : 0u;
      ASSERT_EQ(bfloat16(sign * mid).bits(), s | even) << "double tie at " << hex(u);
      ASSERT_EQ(bfloat16(std::nextafter(sign * mid, sign * INFINITY)).bits(), s | (u + 1)) << hex(u);
      ASSERT_EQ(bfloat16(std::nextafter(sign * mid, 0.0)).bits(), s | u) << hex(u);
      const float midF = static_cast<float>(sign * mid);
      ASSERT_EQ(static_cast<double>(midF), sign * mid);
      ASSERT_EQ(bfloat16(midF).bits(), s | even) << "float tie at " << hex(u);
      ASSERT_EQ(bfloat16(std::nextafter(midF, static_cast<float>(sign) * INFINITY)).bits(), s | (u + 1)) << hex(u);
      ASSERT_EQ(bfloat16(std::nextafter(midF, 0.0f)).bits(), s | u) << hex(u);
    }
  }
  // Above the largest finite float every bfloat16 rounding overflows to infinity.
  EXPECT_EQ(bfloat16(std::numeric_limits<float>::max()).bits(), 0x7f80);
  EXPECT_EQ(bfloat16(-std::numeric_limits<float>::max()).bits(), 0xff80);
}

TEST(Fp16Bf16, TenMillionRandomFloatsMatchReference) {
  std::mt19937_64 rng(0xbf16u);
  std::string why;
  int failures = 0;
  for (int i = 0; i < 10'000'000; ++i) {
    const float f = randomFloat(rng, -126, 127);
    if (!checkFloatToBf16(f, &why)) {
      ADD_FAILURE() << why;
      if (++failures > 10) break;
    }
  }
}

TEST(Fp16Bf16, DoublesAndIntegersRoundOnce) {
  std::mt19937_64 rng(0xbf16d);
  int failures = 0;
  for (int i = 0; i < 1'000'000 && failures <= 10; ++i) {
    const std::uint64_t r = rng();
    const unsigned u = static_cast<unsigned>(r % 0x7f7fu);
    const double mid = (refDecode(static_cast<std::uint16_t>(u), kBf16) +
                        refDecode(static_cast<std::uint16_t>(u + 1), kBf16)) / 2;
    const int shift = static_cast<int>((r >> 21) % 40);
    const std::int64_t mag = static_cast<std::int64_t>((r >> 24) & ((std::uint64_t{1} << shift) - 1));
    const double d = doubleFromBits(bitsOfDouble(mid) + static_cast<std::uint64_t>((r >> 63) ? -mag : mag));
    if (bfloat16(d).bits() != refRound(d, kBf16)) {
      ++failures;
      ADD_FAILURE() << "double " << d << ": got " << hex(bfloat16(d).bits()) << " want "
                    << hex(refRound(d, kBf16));
    }
  }
  // 2^60 + 2^52 + 1 is just above the midpoint between 2^60 and 2^60 + 2^53; a plain int -> double
  // conversion would drop the +1 and tie down to 2^60.
  const std::int64_t justAbove = (std::int64_t{1} << 60) + (std::int64_t{1} << 52) + 1;
  EXPECT_EQ(double(float(bfloat16(justAbove))), std::ldexp(1.0, 60) + std::ldexp(1.0, 53));
  EXPECT_EQ(double(float(bfloat16(-justAbove))), -(std::ldexp(1.0, 60) + std::ldexp(1.0, 53)));
  EXPECT_EQ(double(float(bfloat16(justAbove - 1))), std::ldexp(1.0, 60)) << "exact tie goes to even";
  EXPECT_EQ(float(bfloat16(std::numeric_limits<std::uint64_t>::max())), std::ldexp(1.0f, 64));
  EXPECT_EQ(float(bfloat16(257)), 256.0f);
  EXPECT_EQ(float(bfloat16(259)), 260.0f);
}

TEST(Fp16Bf16, ArithmeticLimitsAndCrossConversion) {
  EXPECT_EQ(float(bfloat16(1.0f) + bfloat16(std::ldexp(1.0f, -8))), 1.0f) << "tie to even";
  EXPECT_EQ(float(bfloat16(3.0f) * bfloat16(7.0f)), 21.0f);
  EXPECT_EQ(float(bfloat16(1.0f) / bfloat16(3.0f)), float(bfloat16(1.0 / 3.0)));
  bfloat16 acc = 0.0f;
  for (int i = 0; i < 300; ++i) acc += 1;
  EXPECT_EQ(float(acc), 256.0f) << "bfloat16 accumulation saturates at 2^8 ulp 2";
  using L = std::numeric_limits<bfloat16>;
  EXPECT_EQ(float(L::max()), std::ldexp(255.0f, 120));
  EXPECT_EQ(float(L::min()), std::numeric_limits<float>::min());
  EXPECT_EQ(float(L::denorm_min()), std::ldexp(1.0f, -133));
  EXPECT_EQ(float(L::epsilon()), std::ldexp(1.0f, -7));
  EXPECT_TRUE(isQuietNanBits(L::quiet_NaN().bits(), kBf16));
  // Explicit half <-> bfloat16 conversions round once through the exact float value.
  EXPECT_EQ(half(bfloat16(3.140625f)).bits(), half(3.140625f).bits());
  EXPECT_EQ(float(bfloat16(half(65504.0f))), 65536.0f);
  EXPECT_TRUE(half(bfloat16(1e6f)).isInf());
}

// ---------------------------------------------------------------------------------- build contracts

TEST(Fp16Header, CompilesCleanAsCpp17AndCpp20) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("kwb_fp16_header_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path src = dir / "use_fp16.cpp";
  {
    std::ofstream out(src);
    out << "#include \"kwb_sim/fp16.h\"\n"
           "using half = kwb_sim::half; using bfloat16_t = kwb_sim::bfloat16;\n"
           "float f(half a, bfloat16_t b, int i) {\n"
           "  half c = a * a + half(i); c += 1.0f; bfloat16_t d = b; d *= 2;\n"
           "  return c < d ? float(c) + float(d) : static_cast<float>(half(2.0) / c);\n"
           "}\n"
           "static_assert(sizeof(half) == 2, \"\");\n";
  }
  const std::string include = std::string(KWB_SOURCE_DIR) + "/core/emulator/include";
  for (const char* std : {"-std=c++17", "-std=c++20"}) {
    for (const char* arch : {"-mno-f16c", "-mf16c"}) {
      kwb::ProcessSpec spec;
      spec.argv = {"g++", std, arch, "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic", "-Wconversion",
                   "-Wshadow", "-Werror", "-I" + include, src.string()};
      spec.timeout = std::chrono::seconds(120);
      const kwb::ProcessResult r = kwb::ProcessRunner().run(spec);
      EXPECT_TRUE(r.ok()) << std << ' ' << arch << ": " << r.describe() << '\n' << r.stderrText;
    }
  }
  fs::remove_all(dir);
}

// All 2^32 floats against the reference (and _Float16). Minutes in Debug: run on demand with
// --gtest_also_run_disabled_tests --gtest_filter='*Exhaustive*'.
TEST(Fp16Exhaustive, DISABLED_AllFloatsToHalfAndBfloat16) {
  std::string why;
  int failures = 0;
  for (std::uint64_t x = 0; x <= 0xffffffffu && failures <= 10; ++x) {
    const float f = floatFromBits(static_cast<std::uint32_t>(x));
    if (!checkFloatToHalf(f, &why)) {
      ++failures;
      ADD_FAILURE() << why;
    }
    if (!checkFloatToBf16(f, &why)) {
      ++failures;
      ADD_FAILURE() << why;
    }
  }
}
