// SPDX-License-Identifier: MIT
// The verifier's block-range finding (core/verify/BlockRangeCause): an output whose first elements no
// block wrote is reported at the line that computes the blocks' GM offset, with the SetGlobalBuffer that
// takes it as a related location.
#include <gtest/gtest.h>

#include "core/verify/BlockRangeCause.h"

using namespace kwb;
using namespace kwb::verify;

namespace {

const char* kKernel =
    "// SPDX-License-Identifier: MIT\n"                                                     // 1
    "class K {\n"                                                                           // 2
    " public:\n"                                                                            // 3
    "  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const T& t) {\n"                   // 4
    "    const uint32_t idx = static_cast<uint32_t>(GetBlockIdx()) + 1;  // GetBlockIdx\n"  // 5
    "    rowStart_ = t.rowsPerBlock * idx;\n"                                               // 6
    "    const uint64_t first = static_cast<uint64_t>(rowStart_) * t.cols;\n"               // 7
    "    xGm.SetGlobalBuffer((__gm__ float*)x + first, rows_ * t.cols);\n"                  // 8
    "    yGm.SetGlobalBuffer((__gm__ float*)y + rowStart_, rows_);\n"                       // 9
    "    zGm.SetGlobalBuffer((__gm__ float*)y + t.n * GetBlockIdx(), rows_);\n"             // 10
    "    wGm.SetGlobalBuffer((__gm__ float*)y + t.offset, rows_);\n"                        // 11
    "  }\n"                                                                                 // 12
    "};\n";                                                                                 // 13

CaseCheck failingCase(int blockDim, std::optional<std::int64_t> prefix, int setLine) {
  CaseCheck c;
  c.caseName = "rows_8x1024";
  c.blockDim = blockDim;
  c.passed = false;
  TensorCheck t;
  t.tensor = "y";
  t.passed = false;
  t.pattern.kind = PatternKind::Unwritten;
  t.pattern.unwrittenPrefix = prefix;
  t.rangeSetLine = setLine;
  c.outputs.push_back(t);
  return c;
}

TEST(VerifierBlockRangeCause, FollowsTheOffsetBackToTheLineThatReadsTheBlockIndex) {
  EXPECT_EQ(blockOffsetLine(kKernel, 9), 5);    // rowStart_ <- idx <- GetBlockIdx()
  EXPECT_EQ(blockOffsetLine(kKernel, 8), 5);    // first <- rowStart_ <- idx
  EXPECT_EQ(blockOffsetLine(kKernel, 10), 10);  // the call itself reads it
  EXPECT_EQ(blockOffsetLine(kKernel, 11), std::nullopt);
  EXPECT_EQ(blockOffsetLine(kKernel, 6), std::nullopt);  // no SetGlobalBuffer on that line
}

TEST(VerifierBlockRangeCause, AnUnwrittenPrefixIsReportedAtTheOffsetsOrigin) {
  const auto d = blockRangeShiftCause({failingCase(2, 4, 9)}, "kernel.cpp", kKernel);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->category, "wrong-answer");
  EXPECT_EQ(d->source, "verifier");
  EXPECT_EQ(d->file, "kernel.cpp");
  EXPECT_EQ(d->line, 5);
  EXPECT_EQ(d->tensor, "y");
  EXPECT_NE(d->message.find("elements 0..3 of y (case rows_8x1024, blockDim 2) are written by no block"),
            std::string::npos)
      << d->message;
  EXPECT_NE(d->message.find("starts 4 elements too far along"), std::string::npos) << d->message;
  ASSERT_EQ(d->related.size(), 1u);
  EXPECT_EQ(d->related[0].line, 9);
  EXPECT_EQ(d->related[0].role, "the SetGlobalBuffer that takes this offset");
}

TEST(VerifierBlockRangeCause, WithoutAnOriginTheFindingSitsAtTheSetGlobalBuffer) {
  const auto d = blockRangeShiftCause({failingCase(4, 16, 11)}, "kernel.cpp", kKernel);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->line, 11);
  EXPECT_TRUE(d->related.empty());
}

TEST(VerifierBlockRangeCause, NothingWhenTheShapeOfTheFailureIsNotAShift) {
  // One block: a missing start may be a skipped first tile.
  EXPECT_FALSE(blockRangeShiftCause({failingCase(1, 4, 9)}, "kernel.cpp", kKernel));
  // Not a prefix (a gap, or everything unwritten).
  EXPECT_FALSE(blockRangeShiftCause({failingCase(2, std::nullopt, 9)}, "kernel.cpp", kKernel));
  // The writes' SetGlobalBuffer is unknown.
  EXPECT_FALSE(blockRangeShiftCause({failingCase(2, 4, 0)}, "kernel.cpp", kKernel));
  // A passing case.
  CaseCheck ok = failingCase(2, 4, 9);
  ok.passed = true;
  ok.outputs[0].passed = true;
  EXPECT_FALSE(blockRangeShiftCause({ok}, "kernel.cpp", kKernel));
}

}  // namespace
