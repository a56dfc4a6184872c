// SPDX-License-Identifier: MIT
// Verify reports that are true (issue 15 item 3): never-written outputs are "not written" (not "nan" next
// to "max abs err 0"), blocks are named from the slices the run really wrote, and small mixed-sign
// errors are not "a constant offset".
#include <gtest/gtest.h>

#include "core/verify/ElementCodec.h"
#include "core/verify/OutputCheck.h"
#include "core/verify/Poison.h"

using namespace kwb;
using namespace kwb::verify;

namespace {
TensorSpec spec(Shape s, DType t = DType::Float32) {
  return TensorSpec{"y", t, std::move(s), "ND"};
}
std::vector<double> ramp(std::int64_t n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = 1.0 + static_cast<double>(i % 13) * 0.5;
  return v;
}
Tolerance tol() {
  return Tolerance{1e-5, 1e-4, 1e-4};
}
}  // namespace

TEST(VerifierTruthfulReport, NeverWrittenOutputIsNotWrittenNotNan) {
  const std::int64_t n = 1024;
  const auto e = ramp(n);
  const Bytes poison = poisonBytes(DType::Float32, n);
  const auto r = checkOutput(spec({n}), e, poison, poison, tol(), {4, {}});
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.unwritten, n);
  EXPECT_EQ(r.pattern.kind, PatternKind::Unwritten) << r.summary;
  EXPECT_NE(r.pattern.detail.find("not written"), std::string::npos) << r.pattern.detail;
  EXPECT_EQ(r.summary.find("nan"), std::string::npos) << r.summary;
  EXPECT_EQ(r.summary.find("max abs err 0"), std::string::npos) << r.summary;
  EXPECT_NE(r.summary.find("no element was written"), std::string::npos) << r.summary;
}

TEST(VerifierTruthfulReport, IntegerOutputNeverWrittenIsNotAConstantOutput) {
  const std::int64_t n = 256;
  std::vector<double> e(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) e[static_cast<std::size_t>(i)] = static_cast<double>(i % 17);
  const Bytes poison = poisonBytes(DType::Int32, n);
  const auto r = checkOutput(spec({n}, DType::Int32), e, poison, poison, tol(), {1, {}});
  EXPECT_EQ(r.pattern.kind, PatternKind::Unwritten) << r.summary;
  for (auto f : r.failedRules) EXPECT_NE(f, FailedRule::ConstantOutput) << r.summary;
}

TEST(VerifierTruthfulReport, PartlyWrittenSaysOverTheWrittenElements) {
  const std::int64_t n = 512;
  const auto e = ramp(n);
  const Bytes poison = poisonBytes(DType::Float32, n);
  Bytes out = encodeAll(DType::Float32, e);
  // The middle 64 elements never written, the rest right.
  std::copy(poison.begin() + 100 * 4, poison.begin() + 164 * 4, out.begin() + 100 * 4);
  const auto r = checkOutput(spec({n}), e, out, poison, tol(), {1, {}});
  EXPECT_EQ(r.unwritten, 64);
  EXPECT_EQ(r.pattern.kind, PatternKind::Unwritten) << r.summary;
  EXPECT_NE(r.pattern.detail.find("indices 100..163"), std::string::npos) << r.pattern.detail;
  EXPECT_NE(r.summary.find("over the 448 written elements"), std::string::npos) << r.summary;
}

TEST(VerifierTruthfulReport, AnUnwrittenStartIsAPrefixAndAGapIsNot) {
  const std::int64_t n = 512;
  const auto e = ramp(n);
  const Bytes poison = poisonBytes(DType::Float32, n);
  Bytes out = encodeAll(DType::Float32, e);
  std::copy(poison.begin(), poison.begin() + 128 * 4, out.begin());
  const auto prefix = checkOutput(spec({n}), e, out, poison, tol(), {4, {}});
  EXPECT_EQ(prefix.unwritten, 128) << prefix.summary;
  EXPECT_EQ(prefix.pattern.unwrittenPrefix, 128) << prefix.summary;
  out = encodeAll(DType::Float32, e);
  std::copy(poison.begin() + 100 * 4, poison.begin() + 164 * 4, out.begin() + 100 * 4);
  const auto gap = checkOutput(spec({n}), e, out, poison, tol(), {4, {}});
  EXPECT_EQ(gap.pattern.kind, PatternKind::Unwritten) << gap.summary;
  EXPECT_FALSE(gap.pattern.unwrittenPrefix) << gap.summary;
  const auto none = checkOutput(spec({n}), e, poison, poison, tol(), {4, {}});
  EXPECT_FALSE(none.pattern.unwrittenPrefix) << none.summary;
}

TEST(VerifierTruthfulReport, ElementsCopiedOutOfNeverWrittenUbAreNamed) {
  const std::int64_t n = 256;
  const auto e = ramp(n);
  const Bytes poison = poisonBytes(DType::Float32, n);
  Bytes out = encodeAll(DType::Float32, e);
  std::fill(out.begin() + 240 * 4, out.end(), 0xCD);  // the last 16 elements: fresh UB copied out
  const auto r = checkOutput(spec({n}), e, out, poison, tol(), {1, {}});
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.staleLocal, 16);
  EXPECT_EQ(r.unwritten, 0);
  EXPECT_NE(r.summary.find("16 hold 0xCD in every byte, the emulator's fill of fresh UB/L1"),
            std::string::npos)
      << r.summary;
  // Plain wrong values are not called stale.
  Bytes off = encodeAll(DType::Float32, e);
  off[0] ^= 0x40;
  off[3] ^= 0x40;
  EXPECT_EQ(checkOutput(spec({n}), e, off, poison, tol(), {1, {}}).staleLocal, 0);
}

TEST(VerifierTruthfulReport, BlockAttributedFromTheSlicesTheRunWrote) {
  // 4 blocks, uneven: block 0 wrote [0, 700), block 1 [700, 800), block 2 [800, 900), block 3 [900, 1000).
  // Under an even split element 750 belongs to block 3; the run says block 1 wrote it.
  const std::int64_t n = 1000;
  const auto e = ramp(n);
  auto a = e;
  for (std::int64_t i = 700; i < 800; ++i) a[static_cast<std::size_t>(i)] += 2.0 + static_cast<double>(i % 3);
  const Bytes poison = poisonBytes(DType::Float32, n);
  LaunchShape real{4, {{{0, 700}}, {{700, 800}}, {{800, 900}}, {{900, 1000}}}};
  auto r = checkOutput(spec({n}), e, encodeAll(DType::Float32, a), poison, tol(), real);
  EXPECT_EQ(r.pattern.kind, PatternKind::BlockOnly) << r.summary;
  EXPECT_EQ(r.pattern.block, 1);
  EXPECT_NE(r.pattern.detail.find("slice 700..799 it wrote"), std::string::npos) << r.pattern.detail;
  // The even split puts these elements in block 2 (250-element slices): a different, wrong answer.
  r = checkOutput(spec({n}), e, encodeAll(DType::Float32, a), poison, tol(), {4, {}});
  EXPECT_NE(r.pattern.block, std::optional<int>(1)) << r.summary;
}

TEST(VerifierTruthfulReport, MixedSignSmallErrorsAreNotAConstantOffset) {
  const std::int64_t n = 400;
  const auto e = ramp(n);
  auto a = e;
  for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i)] += (i % 3 == 0 ? -0.002 : 0.0025);
  const auto r = checkOutput(spec({n}), e, encodeAll(DType::Float32, a), {}, tol(), {1, {}});
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.pattern.kind, PatternKind::Offset) << r.summary;
  EXPECT_EQ(r.summary.find("constant offset"), std::string::npos) << r.summary;
  // The same errors with one sign and no spread are one.
  auto b = e;
  for (auto& x : b) x += 0.0025;
  const auto o = checkOutput(spec({n}), e, encodeAll(DType::Float32, b), {}, tol(), {1, {}});
  EXPECT_EQ(o.pattern.kind, PatternKind::Offset) << o.summary;
}
