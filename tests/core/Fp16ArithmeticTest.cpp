// SPDX-License-Identifier: MIT
// kwb_sim::half and kwb_sim::bfloat16 beyond conversions: layout and traits, arithmetic (correctly
// rounded through float), compound/mixed/comparison operators, numeric_limits, half <-> bfloat16, and the
// header's build contract (clean as C++17 and C++20, with and without F16C). Conversions are in
// Fp16ConversionTest.cpp; the reference both use is in Fp16Reference.h.

#include "core/emulator/include/kwb_sim/fp16.h"
#include "core/process/ProcessRunner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include <unistd.h>

#include "tests/core/Fp16Reference.h"

using kwb_sim::bfloat16;
using kwb_sim::half;
using namespace kwb_fp16_test;

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

// --------------------------------------------------------------------------------------------- half

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

// ----------------------------------------------------------------------------------------- bfloat16

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
      spec.argv = {"g++",      std,       arch,           "-fsyntax-only",
                   "-Wall",    "-Wextra", "-Wpedantic",   "-Wconversion",
                   "-Wshadow", "-Werror", "-I" + include, src.string()};
      spec.timeout = std::chrono::seconds(120);
      const kwb::ProcessResult r = kwb::ProcessRunner().run(spec);
      EXPECT_TRUE(r.ok()) << std << ' ' << arch << ": " << r.describe() << '\n' << r.stderrText;
    }
  }
  fs::remove_all(dir);
}
