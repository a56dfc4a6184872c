// SPDX-License-Identifier: MIT
// Conversions of kwb_sim::half and kwb_sim::bfloat16 (float, double and integers in; float out; bulk)
// against the reference in Fp16Reference.h. Arithmetic, operators, limits and the header's build contract
// are in Fp16ArithmeticTest.cpp.
//
// Exhaustive float -> half over all 2^32 patterns takes minutes in a Debug build (measured: about 8 min
// at -O2 with the soft-float _Float16 oracle, 11 s with F16C), so the default tests cover every 16-bit
// pattern, every midpoint between neighbours and its float/double neighbours, and 10M random floats;
// the exhaustive run is kept as a DISABLED_ test (--gtest_also_run_disabled_tests).

#include "core/emulator/include/kwb_sim/fp16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "tests/core/Fp16Reference.h"

using kwb_sim::bfloat16;
using kwb_sim::half;
using namespace kwb_fp16_test;

namespace {

// Checks one float against the reference (and _Float16 for half); returns false on mismatch.
template <typename T16>
bool checkFloatTo(float f, const Format& fmt, std::string* why) {
  const std::uint16_t got = T16(f).bits();
  if (std::isnan(f)) {
    if (!isQuietNanBits(got, fmt)) {
      *why = "NaN " + hex(bitsOfFloat(f) >> 16) + " -> " + hex(got);
      return false;
    }
    return true;
  }
  const std::uint16_t want = refRound(static_cast<double>(f), fmt);
  if (got != want) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "float %.9g (0x%08x): got 0x%04x want 0x%04x", static_cast<double>(f),
                  bitsOfFloat(f), got, want);
    *why = buf;
    return false;
  }
#if KWB_TEST_HAVE_FLOAT16
  if (std::is_same_v<T16, half> && oracleHalf(f) != want) {
    *why = "reference and _Float16 disagree on " + std::to_string(f);
    return false;
  }
#endif
  return true;
}
bool checkFloatToHalf(float f, std::string* why) {
  return checkFloatTo<half>(f, kHalf, why);
}
bool checkFloatToBf16(float f, std::string* why) {
  return checkFloatTo<bfloat16>(f, kBf16, why);
}

}  // namespace

// ------------------------------------------------------------------------------------ type properties

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
    const double hi =
        (u == 0x7f7f) ? std::ldexp(1.0, 128) : refDecode(static_cast<std::uint16_t>(u + 1), kBf16);
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
      ASSERT_EQ(bfloat16(std::nextafter(midF, static_cast<float>(sign) * INFINITY)).bits(), s | (u + 1))
          << hex(u);
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
                        refDecode(static_cast<std::uint16_t>(u + 1), kBf16)) /
                       2;
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

// ---------------------------------------------------------------------------------------- exhaustive

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
