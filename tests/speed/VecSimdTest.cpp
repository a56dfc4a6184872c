// SPDX-License-Identifier: MIT
// The vector engine's SIMD kernels (core/emulator/runtime/VecSimd.h) give the same bits as their scalar
// twins: every half value, every float for the narrowing conversion, every half against a set of operands
// that covers each class of value (zeros, subnormals, normals, the largest, infinities, NaNs), and every
// half with each tensor-scalar op.

#include "core/emulator/runtime/VecSimd.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using kwb_sim::VOp;
namespace simd = kwb_sim::simd;

std::vector<std::uint16_t> everyHalf() {
  std::vector<std::uint16_t> v(65536);
  for (std::uint32_t i = 0; i < 65536; ++i) v[i] = static_cast<std::uint16_t>(i);
  return v;
}

// Operands of every kind: signed zeros, the smallest and largest subnormals, the smallest normal, values
// around one, the largest finite, infinities, quiet and signalling NaNs with payloads, and random ones.
std::vector<std::uint16_t> representativeHalves() {
  std::vector<std::uint16_t> v = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x3c00,
                                  0xbc00, 0x3bff, 0x3c01, 0x3800, 0x4000, 0xc200, 0x7bff, 0xfbff, 0x7c00,
                                  0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7d23, 0xfdff, 0x5640, 0x1234, 0x0200};
  std::mt19937 rng(20);
  for (int i = 0; i < 40; ++i) v.push_back(static_cast<std::uint16_t>(rng()));
  return v;
}

std::string hex(std::uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

// Index of the first element where the two differ bit-wise, or -1.
template <typename T>
long firstDifference(const std::vector<T>& a, const std::vector<T>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return static_cast<long>(i);
  return -1;
}

std::uint32_t bitsOf(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

class VecSimd : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!simd::cpuHasAvx2F16c()) GTEST_SKIP() << "this CPU has no AVX2/F16C: only the scalar path exists";
  }
};

TEST_F(VecSimd, WideningAgreesOnEveryHalf) {
  const auto h = everyHalf();
  std::vector<float> s(h.size()), v(h.size());
  simd::halfToFloat(false, h.data(), s.data(), h.size());
  simd::halfToFloat(true, h.data(), v.data(), h.size());
  const long at = firstDifference(s, v);
  EXPECT_EQ(at, -1) << "half " << hex(at < 0 ? 0 : h[at]) << ": scalar " << hex(bitsOf(s[at < 0 ? 0 : at]))
                    << ", SIMD " << hex(bitsOf(v[at < 0 ? 0 : at]));
}

TEST_F(VecSimd, NarrowingAgreesOnEveryFloat) {
  constexpr std::size_t kBlock = 1u << 20;
  std::vector<std::uint32_t> bits(kBlock);
  std::vector<float> f(kBlock);
  std::vector<std::uint16_t> s(kBlock), v(kBlock);
  for (std::uint64_t base = 0; base < (1ull << 32); base += kBlock) {
    // Whole-block operations only: this test binary is unoptimised in Debug builds.
    std::iota(bits.begin(), bits.end(), static_cast<std::uint32_t>(base));
    std::memcpy(f.data(), bits.data(), kBlock * 4);
    simd::floatToHalf(false, f.data(), s.data(), kBlock);
    simd::floatToHalf(true, f.data(), v.data(), kBlock);
    if (s == v) continue;
    const long at = firstDifference(s, v);
    FAIL() << "float " << hex(bits[at]) << ": scalar " << hex(s[at]) << ", SIMD " << hex(v[at]);
  }
}

const VOp kBinaryOps[] = {VOp::Add, VOp::Sub, VOp::Mul, VOp::Div, VOp::Max, VOp::Min};
const VOp kScalarOps[] = {VOp::Adds, VOp::Muls, VOp::Maxs, VOp::Mins,       VOp::LeakyRelu, VOp::Relu,
                          VOp::Abs,  VOp::Neg,  VOp::Sqrt, VOp::Reciprocal, VOp::Rsqrt};

TEST_F(VecSimd, HalfBinaryOpsAgreeOnEveryHalfAgainstEveryKindOfOperand) {
  const auto a = everyHalf();
  std::vector<std::uint16_t> s(a.size()), v(a.size()), b(a.size());
  for (const VOp op : kBinaryOps) {
    std::vector<std::vector<std::uint16_t>> operands;
    for (const std::uint16_t x : representativeHalves()) operands.emplace_back(a.size(), x);
    operands.push_back(a);                                                           // a op a
    for (auto& o : operands.emplace_back(a)) o = static_cast<std::uint16_t>(o + 1);  // the neighbour
    for (const auto& o : operands) {
      ASSERT_TRUE(simd::halfBinary(false, op, s.data(), a.data(), o.data(), a.size()));
      ASSERT_TRUE(simd::halfBinary(true, op, v.data(), a.data(), o.data(), a.size()));
      const long at = firstDifference(s, v);
      ASSERT_EQ(at, -1) << "op " << int(op) << " on " << hex(a[at < 0 ? 0 : at]) << ", "
                        << hex(o[at < 0 ? 0 : at]) << ": scalar " << hex(s[at < 0 ? 0 : at]) << ", SIMD "
                        << hex(v[at < 0 ? 0 : at]);
      // Operands swapped too (max/min and NaNs are order-sensitive).
      ASSERT_TRUE(simd::halfBinary(false, op, s.data(), o.data(), a.data(), a.size()));
      ASSERT_TRUE(simd::halfBinary(true, op, v.data(), o.data(), a.data(), a.size()));
      ASSERT_EQ(firstDifference(s, v), -1) << "op " << int(op) << " with swapped operands";
    }
  }
}

TEST_F(VecSimd, HalfTensorScalarOpsAgreeOnEveryHalf) {
  const auto a = everyHalf();
  std::vector<std::uint16_t> s(a.size()), v(a.size());
  const float scalars[] = {0.0f,
                           -0.0f,
                           0.5f,
                           -2.0f,
                           3.14159f,
                           1e-8f,
                           65504.0f,
                           70000.0f,
                           __builtin_inff(),
                           -__builtin_inff(),
                           __builtin_nanf("")};
  for (const VOp op : kScalarOps)
    for (const float x : scalars) {
      ASSERT_TRUE(simd::halfScalar(false, op, s.data(), a.data(), x, a.size()));
      ASSERT_TRUE(simd::halfScalar(true, op, v.data(), a.data(), x, a.size()));
      const long at = firstDifference(s, v);
      ASSERT_EQ(at, -1) << "op " << int(op) << " scalar " << x << " on " << hex(a[at < 0 ? 0 : at])
                        << ": scalar " << hex(s[at < 0 ? 0 : at]) << ", SIMD " << hex(v[at < 0 ? 0 : at]);
    }
}

// Floats: every kind of value against every kind (the representative halves widened, plus float-only
// ones: subnormals, the largest finite, NaN payloads) and a million random pairs.
TEST_F(VecSimd, FloatOpsAgree) {
  std::vector<float> kinds;
  for (const std::uint16_t h : representativeHalves()) kinds.push_back(kwb_sim::half::toFloat(h));
  for (const std::uint32_t bits : {0x00000001u, 0x007fffffu, 0x7f7fffffu, 0xff7fffffu, 0x7fc12345u,
                                   0xffa00001u, 0x3f800001u, 0x33800000u})
    kinds.push_back([&] {
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }());
  std::vector<float> a, b;
  for (const float x : kinds)
    for (const float y : kinds) {
      a.push_back(x);
      b.push_back(y);
    }
  std::mt19937 rng(7);
  for (int i = 0; i < 1'000'000; ++i) {
    const std::uint32_t x = rng(), y = rng();
    a.push_back(0);
    b.push_back(0);
    std::memcpy(&a.back(), &x, 4);
    std::memcpy(&b.back(), &y, 4);
  }
  a.push_back(1.5f);  // an odd length: the tail takes the same path
  b.push_back(2.5f);
  std::vector<float> s(a.size()), v(a.size());
  for (const VOp op : kBinaryOps) {
    ASSERT_TRUE(simd::floatBinary(false, op, s.data(), a.data(), b.data(), a.size()));
    ASSERT_TRUE(simd::floatBinary(true, op, v.data(), a.data(), b.data(), a.size()));
    const long at = firstDifference(s, v);
    ASSERT_EQ(at, -1) << "op " << int(op) << " on " << hex(bitsOf(a[at < 0 ? 0 : at])) << ", "
                      << hex(bitsOf(b[at < 0 ? 0 : at]));
  }
  for (const VOp op : kScalarOps)
    for (const float x : kinds) {
      ASSERT_TRUE(simd::floatScalar(false, op, s.data(), a.data(), x, a.size()));
      ASSERT_TRUE(simd::floatScalar(true, op, v.data(), a.data(), x, a.size()));
      const long at = firstDifference(s, v);
      ASSERT_EQ(at, -1) << "op " << int(op) << " scalar " << hex(bitsOf(x)) << " on "
                        << hex(bitsOf(a[at < 0 ? 0 : at]));
    }
}

TEST(VecSimdDispatch, OpsOutsideTheSetAreLeftToTheCaller) {
  std::uint16_t h[8] = {};
  float f[8] = {};
  EXPECT_FALSE(simd::halfBinary(false, VOp::And, h, h, h, 8));
  EXPECT_FALSE(simd::floatBinary(true, VOp::Or, f, f, f, 8));
  EXPECT_FALSE(simd::halfScalar(false, VOp::Exp, h, h, 1.0f, 8));
  EXPECT_FALSE(simd::floatScalar(true, VOp::ShiftLeft, f, f, 1.0f, 8));
}

// The engine's entry point (what Add/Muls/... of a kernel call) computes the correctly rounded result.
TEST(VecSimdDispatch, EngineAddOfHalvesIsCorrectlyRounded) {
  std::vector<std::uint16_t> a(1003), b(1003), d(1003);
  std::mt19937 rng(3);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = kwb_sim::half::fromFloat(float(rng() % 2000) * 0.125f - 100.0f);
    b[i] = kwb_sim::half::fromFloat(float(rng() % 3000) * 0.01f);
  }
  kwb_sim::vecBinary(VOp::Add, kwb_sim::DType::F16, d.data(), a.data(), b.data(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double exact = double(kwb_sim::half::toFloat(a[i])) + double(kwb_sim::half::toFloat(b[i]));
    ASSERT_EQ(d[i], kwb_sim::half(exact).bits()) << "element " << i;
  }
}

}  // namespace
