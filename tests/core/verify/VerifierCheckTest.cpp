// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cmath>

#include "core/verify/ElementCodec.h"
#include "core/verify/InputGenerator.h"
#include "core/verify/OutputCheck.h"
#include "core/verify/Poison.h"

using namespace kwb;
using namespace kwb::verify;

namespace {
TensorSpec spec(Shape s, DType t = DType::Float32) {
  return TensorSpec{"z", t, std::move(s), "ND"};
}
std::vector<double> ramp(std::int64_t n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = 0.5 + static_cast<double>(i % 97) * 0.25;
  return v;
}
Tolerance fp32Tol() {
  return Tolerance{1e-5, 1e-4, 1e-4};
}
}  // namespace

TEST(VerifierCodec, HalfRoundTripAndRounding) {
  EXPECT_EQ(doubleToHalfBits(1.0), 0x3c00);
  EXPECT_EQ(doubleToHalfBits(-2.0), 0xc000);
  EXPECT_EQ(doubleToHalfBits(65504.0), 0x7bff);
  EXPECT_EQ(doubleToHalfBits(70000.0), 0x7c00);
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -24)), 0x0001);
  // 1 + 2^-11 is a tie between 1 and 1+2^-10: round to even (1.0).
  EXPECT_EQ(doubleToHalfBits(1.0 + std::ldexp(1.0, -11)), 0x3c00);
  EXPECT_EQ(doubleToHalfBits(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02);
  for (std::uint32_t h = 0; h < 0x7c00; ++h)
    ASSERT_EQ(doubleToHalfBits(halfBitsToDouble(static_cast<std::uint16_t>(h))), h);
  EXPECT_EQ(doubleToBf16Bits(1.0), 0x3f80);
  EXPECT_DOUBLE_EQ(bf16BitsToDouble(0x3f80), 1.0);
  EXPECT_DOUBLE_EQ(representable(DType::Int8, 300.0), 127.0);
}

TEST(VerifierInputs, SeededDeterministicAndFresh) {
  ValueHint h;
  h.distribution = Distribution::Normal;
  auto a = generateValues(h, DType::Float16, 1000, 42);
  auto b = generateValues(h, DType::Float16, 1000, 42);
  auto c = generateValues(h, DType::Float16, 1000, 43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(deriveSeed(1, "case_a", "x"), deriveSeed(1, "case_a", "y"));
}

TEST(VerifierInputs, DomainRespected) {
  ValueHint h;
  h.distribution = Distribution::WithNegatives;
  h.low = 0.001;
  auto v = generateValues(h, DType::Float32, 5000, 7);
  for (double x : v) ASSERT_GE(x, 0.001 * (1 - 1e-6));
  ValueHint large;
  large.distribution = Distribution::Large;
  auto w = generateValues(large, DType::Float16, 5000, 7);
  for (double x : w) ASSERT_TRUE(std::isfinite(x) && std::fabs(x) <= 1000.0);
}

TEST(VerifierCheck, PassesExactAndWithinTolerance) {
  auto e = ramp(1000);
  auto a = e;
  a[3] *= 1.00001;
  auto r = checkOutput(spec({1000}), e, encodeAll(DType::Float32, a), poisonBytes(DType::Float32, 1000),
                       fp32Tol(), {1});
  EXPECT_TRUE(r.passed) << r.summary;
  EXPECT_EQ(r.mismatches, 0);
}

TEST(VerifierCheck, TailTileWrong) {
  const std::int64_t n = 16384 + 35;
  auto e = ramp(n);
  Bytes out = encodeAll(DType::Float32, e);
  Bytes poison = poisonBytes(DType::Float32, n);
  // The kernel never wrote the last 35 elements.
  std::copy(poison.end() - 35 * 4, poison.end(), out.end() - 35 * 4);
  auto r = checkOutput(spec({n}), e, out, poison, fp32Tol(), {8});
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.unwritten, 35);
  EXPECT_EQ(r.pattern.kind, PatternKind::TailOnly) << r.summary;
  EXPECT_EQ(r.pattern.firstIndex, n - 35);
  EXPECT_NE(r.summary.find("never written"), std::string::npos);
  ASSERT_FALSE(r.firstMismatches.empty());
  EXPECT_EQ(r.firstMismatches.front().index, n - 35);
}

TEST(VerifierCheck, OneBlockWrong) {
  const std::int64_t rows = 16, cols = 64;
  auto e = ramp(rows * cols);
  auto a = e;
  for (std::int64_t i = 5 * 2 * cols; i < 6 * 2 * cols; ++i)
    a[static_cast<std::size_t>(i)] += 3.0;  // block 5 of 8
  a[5 * 2 * cols + 7] -= 1.0;               // not a pure offset
  auto r = checkOutput(spec({rows, cols}), e, encodeAll(DType::Float32, a),
                       poisonBytes(DType::Float32, rows * cols), fp32Tol(), {8});
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.pattern.kind, PatternKind::BlockOnly) << r.summary;
  EXPECT_EQ(r.pattern.block, 5);
}

TEST(VerifierCheck, StridedWrong) {
  auto e = ramp(4096);
  auto a = e;
  for (std::size_t i = 3; i < a.size(); i += 16) a[i] = -a[i] + static_cast<double>(i % 5);
  auto r = checkOutput(spec({4096}), e, encodeAll(DType::Float32, a), {}, fp32Tol(), {1});
  EXPECT_EQ(r.pattern.kind, PatternKind::Strided) << r.summary;
  EXPECT_EQ(r.pattern.stride, 16);
}

TEST(VerifierCheck, ScaleFactor) {
  auto e = ramp(512);
  auto a = e;
  for (auto& x : a) x *= 2.0;
  auto r = checkOutput(spec({512}), e, encodeAll(DType::Float32, a), {}, fp32Tol(), {4});
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.pattern.kind, PatternKind::Scale);
  EXPECT_NEAR(*r.pattern.factor, 2.0, 1e-6);
}

TEST(VerifierCheck, AllZerosRejectedEvenInsideTolerance) {
  // Softmax-like tiny outputs: zeros are within atol but must still be rejected.
  std::vector<double> e(256);
  for (std::size_t i = 0; i < e.size(); ++i) e[i] = 1e-7 * static_cast<double>(i % 13 + 1);
  Bytes zeros(256 * 4, 0);
  auto r =
      checkOutput(spec({256}), e, zeros, poisonBytes(DType::Float32, 256), Tolerance{1e-5, 1e-4, 1e-4}, {1});
  // atol is capped at rtol * max|reference|, so the zeros are wrong element by element too.
  EXPECT_EQ(r.mismatches, 256);
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(r.constantOutput);
  EXPECT_EQ(r.pattern.kind, PatternKind::ConstantOutput) << r.summary;
  EXPECT_NE(r.summary.find("all zeros"), std::string::npos) << r.summary;
  // With an absolute-only tolerance (rtol 0) the zeros are inside atol: the constant rule still rejects.
  r = checkOutput(spec({256}), e, zeros, poisonBytes(DType::Float32, 256), Tolerance{1e-5, 0.0, 1e-4}, {1});
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.pattern.kind, PatternKind::ConstantOutput) << r.summary;
  EXPECT_NE(r.summary.find("constant-output"), std::string::npos) << r.summary;
}

TEST(VerifierCheck, NaNWhereReferenceFiniteFailsEvenUnderRatio) {
  auto e = ramp(100000);
  auto a = e;
  a[10] = std::nan("");
  auto r = checkOutput(spec({100000}), e, encodeAll(DType::Float32, a), {}, fp32Tol(), {1});
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.nonFinite, 1);
}

TEST(VerifierCheck, MismatchRatioLimit) {
  auto e = ramp(10000);
  auto a = e;
  a[17] *= 1.005;  // a near miss (5 rtol); 1 of 10000 = 1e-4 <= fp16 limit 1e-3
  auto r = checkOutput(spec({10000}, DType::Float32), e, encodeAll(DType::Float32, a), {},
                       Tolerance{1e-5, 1e-3, 1e-3}, {1});
  EXPECT_TRUE(r.passed) << r.summary;
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.nearMisses, 1);
  for (int i = 100; i < 120; ++i) a[static_cast<std::size_t>(i)] *= 1.005;
  r = checkOutput(spec({10000}, DType::Float32), e, encodeAll(DType::Float32, a), {},
                  Tolerance{1e-5, 1e-3, 1e-3}, {1});
  EXPECT_FALSE(r.passed);
  // The budget excuses near misses only: one element off by 1.0 (20% here) fails alone.
  a = e;
  a[17] += 1.0;
  r = checkOutput(spec({10000}, DType::Float32), e, encodeAll(DType::Float32, a), {},
                  Tolerance{1e-5, 1e-3, 1e-3}, {1});
  EXPECT_FALSE(r.passed) << r.summary;
  EXPECT_EQ(r.grossErrors, 1);
}

TEST(VerifierCheck, RowTailWrong) {
  const std::int64_t rows = 8, cols = 1023;
  auto e = ramp(rows * cols);
  auto a = e;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 1008; c < cols; ++c) a[static_cast<std::size_t>(r * cols + c)] = 0.0;
  auto r = checkOutput(spec({rows, cols}), e, encodeAll(DType::Float32, a), {}, fp32Tol(), {1});
  EXPECT_EQ(r.pattern.kind, PatternKind::RowTailOnly) << r.summary;
  EXPECT_EQ(r.pattern.firstIndex, 1008);
}

TEST(VerifierCheck, ModifiedInputDetected) {
  TensorSpec x{"x", DType::Float16, {64}, "ND"};
  auto before = encodeAll(DType::Float16, ramp(64));
  auto after = before;
  after[20] ^= 0x01;
  auto c = checkInputUnchanged(x, before, after);
  EXPECT_EQ(c.changed, 1);
  EXPECT_EQ(c.firstChangedIndex, 10);
  EXPECT_NE(c.summary.find("modified"), std::string::npos);
}

TEST(VerifierCheck, PoisonIsNaNForFloats) {
  auto p = poisonBytes(DType::Float16, 4);
  EXPECT_TRUE(std::isnan(decodeElement(DType::Float16, p.data())));
  auto q = poisonBytes(DType::Float32, 4);
  EXPECT_TRUE(std::isnan(decodeElement(DType::Float32, q.data() + 4)));
}

TEST(VerifierCheck, ConstantOffsetOnlyWhenOneSignAndNarrowSpread) {
  auto e = ramp(512);
  auto shifted = e;
  for (auto& x : shifted) x += 0.5;
  auto r = checkOutput(spec({512}), e, encodeAll(DType::Float32, shifted), {}, fp32Tol(), {4});
  EXPECT_EQ(r.pattern.kind, PatternKind::Offset) << r.summary;
  EXPECT_NEAR(*r.pattern.factor, 0.5, 1e-6);
  // Errors just past the tolerance with mixed signs: no constant offset, whatever their median.
  std::vector<double> near1(512);
  for (std::size_t i = 0; i < near1.size(); ++i) near1[i] = 1.0 + 0.01 * static_cast<double>(i % 5);
  auto mixed = near1;
  for (std::size_t i = 0; i < mixed.size(); ++i) mixed[i] += (i % 2 ? 0.003 : -0.0015);
  r = checkOutput(spec({512}), near1, encodeAll(DType::Float32, mixed), {}, fp32Tol(), {4});
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.pattern.kind, PatternKind::Offset) << r.summary;
  EXPECT_EQ(r.summary.find("constant offset"), std::string::npos) << r.summary;
  // One sign, but spread from 0.1 to 0.9: not one offset either.
  auto spread = e;
  for (std::size_t i = 0; i < spread.size(); ++i) spread[i] += 0.1 + 0.8 * static_cast<double>(i % 7) / 6.0;
  r = checkOutput(spec({512}), e, encodeAll(DType::Float32, spread), {}, fp32Tol(), {4});
  EXPECT_NE(r.pattern.kind, PatternKind::Offset) << r.summary;
}
