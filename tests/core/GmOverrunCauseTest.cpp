// SPDX-License-Identifier: MIT
// GM out-of-bounds findings moved from the access to their cause (core/diag/GmOverrunCause) on golden
// kernels in tests/fixtures/source_cause/, and kept at the access whenever the source does not say.
#include "core/diag/GmOverrunCause.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

namespace kwb {
namespace {

std::vector<std::string> fixture(const std::string& name) {
  std::ifstream in(std::string(KWB_FIXTURES_DIR) + "/source_cause/" + name);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

Diagnostic atAccess(int line, const std::string& api, const std::string& tensor) {
  Diagnostic d;
  d.source = "emulator";
  d.category = "gm-out-of-bounds";
  d.file = "kernel.cpp";
  d.line = line;
  d.api = api;
  d.tensor = tensor;
  d.message = api + " reads GM bytes outside the SetGlobalBuffer range";
  return d;
}

std::vector<int> relatedLines(const Diagnostic& d) {
  std::vector<int> out;
  for (const auto& r : d.related) out.push_back(r.line);
  return out;
}

TEST(GmOverrunCause, UnclampedTileLengthIsTheCauseOfACopyRunningPastTheRange) {
  const auto lines = fixture("tile_loop_unclamped.cpp");
  ASSERT_FALSE(lines.empty());
  Diagnostic d = atAccess(27, "DataCopyPad", "xGm");
  // 100 floats, tiles of 64: the second tile starts at byte 256 and copies 256 bytes of the 400.
  ASSERT_TRUE(placeGmOverrunAtCause(d, GmRangeAccess{256, 256, 400, false}, lines));
  EXPECT_EQ(d.line, 18);
  EXPECT_EQ(d.excerpt, "const uint32_t n = tile_;  // was: (length_ - off < tile_) ? length_ - off : tile_");
  EXPECT_NE(d.message.find("the length set here (n = tile_) is not clamped"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("reads GM bytes [256, 512) of xGm, 112 bytes past the end of the 400 bytes"),
            std::string::npos)
      << d.message;
  EXPECT_NE(d.message.find("SetGlobalBuffer at line 11"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("Clamp it to the part left"), std::string::npos) << d.message;
  EXPECT_EQ(relatedLines(d), (std::vector<int>{27, 19, 11}));
  EXPECT_EQ(d.related[0].role, "the DataCopyPad that reads past the range (where it shows)");
  EXPECT_EQ(d.related[1].role, "the call of CopyIn that passes count");
  EXPECT_EQ(d.related[0].file, "kernel.cpp");
  ASSERT_FALSE(d.notes.empty());
  EXPECT_EQ(d.notes[0],
            "at the access (line 27): DataCopyPad reads GM bytes outside the SetGlobalBuffer range");
}

TEST(GmOverrunCause, AClampedLengthLeavesTheFindingAtTheCopy) {
  const auto lines = fixture("tile_loop_clamped.cpp");
  Diagnostic d = atAccess(27, "DataCopyPad", "xGm");
  const Diagnostic before = d;
  EXPECT_FALSE(placeGmOverrunAtCause(d, GmRangeAccess{256, 256, 400, false}, lines));
  EXPECT_EQ(d, before);
}

TEST(GmOverrunCause, AClampedLengthRunningPastAShorterRangeIsTheRangesFault) {
  const auto lines = fixture("tile_loop_short_range.cpp");
  ASSERT_FALSE(lines.empty());
  Diagnostic d = atAccess(27, "DataCopyPad", "xGm");
  // 100 floats walked, the range holds 50: the first tile (64 floats) already runs past it.
  ASSERT_TRUE(placeGmOverrunAtCause(d, GmRangeAccess{0, 256, 200, false}, lines));
  EXPECT_EQ(d.line, 11);
  EXPECT_NE(
      d.message.find("the range set here holds 200 bytes, less than the kernel walks: the DataCopyPad at "
                     "line 27, whose length is already clamped (n = (length_ - off < tile_) ? "),
      std::string::npos)
      << d.message;
  EXPECT_NE(d.message.find("Give SetGlobalBuffer the length the loop and its clamp cover"), std::string::npos)
      << d.message;
  EXPECT_EQ(relatedLines(d), (std::vector<int>{27, 19, 18}));
}

TEST(GmOverrunCause, ARangeLengthWithArithmeticOfItsOwnIsTheCauseOfACopyOfTheWholeLength) {
  const auto lines = fixture("param_copy_short_range.cpp");
  ASSERT_FALSE(lines.empty());
  Diagnostic d = atAccess(15, "DataCopyPad", "gammaGm");
  // 64 floats copied from a range of 32.
  ASSERT_TRUE(placeGmOverrunAtCause(d, GmRangeAccess{0, 256, 128, false}, lines));
  EXPECT_EQ(d.line, 11);
  EXPECT_NE(d.message.find("the range set here holds 128 bytes, less than the DataCopyPad at line 15 moves"),
            std::string::npos)
      << d.message;
  EXPECT_EQ(relatedLines(d), (std::vector<int>{15}));
}

TEST(GmOverrunCause, AStrictLoopOverTheLengthTheRangeWasCutFromBlamesTheRange) {
  const auto lines = fixture("row_loop_short_range.cpp");
  ASSERT_FALSE(lines.empty());
  Diagnostic d = atAccess(15, "GetValue", "sGm");
  // 8 rows, a range of 4 floats: row 4 reads from the range's end.
  ASSERT_TRUE(placeGmOverrunAtCause(d, GmRangeAccess{16, 4, 16, false}, lines));
  EXPECT_EQ(d.line, 10);
  EXPECT_NE(
      d.message.find("the range set here holds 16 bytes, less than the loop (for (uint32_t row = 0; row < "
                     "rows_; ++row)) walks"),
      std::string::npos)
      << d.message;
  EXPECT_EQ(relatedLines(d), (std::vector<int>{15, 14}));
}

TEST(GmOverrunCause, AnAccessStartingAtTheRangesEndIsTheLoopsExtraIteration) {
  const auto lines = fixture("row_loop_extra.cpp");
  ASSERT_FALSE(lines.empty());
  Diagnostic d = atAccess(22, "DataCopy", "xGm");
  // 4 rows of 8 floats: row 4 starts at byte 128, the range's end.
  ASSERT_TRUE(placeGmOverrunAtCause(d, GmRangeAccess{128, 32, 128, false}, lines));
  EXPECT_EQ(d.line, 15);
  EXPECT_NE(
      d.message.find("this loop (for (uint32_t row = 0; row <= rows_; ++row)) runs one iteration too many"),
      std::string::npos)
      << d.message;
  EXPECT_NE(d.message.find("the DataCopy at line 22 reads GM bytes [128, 160) of xGm"), std::string::npos)
      << d.message;
  // The access, the calls that lead from the loop to it (Load is called twice in CopyIn, both in the
  // loop), the SetGlobalBuffer.
  EXPECT_EQ(relatedLines(d), (std::vector<int>{22, 35, 15, 12}));
  EXPECT_EQ(d.related[1].role, "the call of Load inside the loop");
}

TEST(GmOverrunCause, WhatTheSourceDoesNotExplainStaysAtTheAccess) {
  const auto rows = fixture("row_loop_extra.cpp");
  // Starting past the range's end (not at it): a wrong offset as likely as a loop.
  Diagnostic past = atAccess(22, "DataCopy", "xGm");
  EXPECT_FALSE(placeGmOverrunAtCause(past, GmRangeAccess{160, 32, 128, false}, rows));
  // Running past with a length that is a member, set in another function: no assignment to blame.
  Diagnostic member = atAccess(22, "DataCopy", "xGm");
  EXPECT_FALSE(placeGmOverrunAtCause(member, GmRangeAccess{96, 64, 128, false}, rows));
  // The API is not on the line the diagnostic names.
  Diagnostic elsewhere = atAccess(21, "DataCopy", "xGm");
  EXPECT_FALSE(placeGmOverrunAtCause(elsewhere, GmRangeAccess{128, 32, 128, false}, rows));
  // An access outside any loop.
  const std::vector<std::string> noLoop{"void f() {", "  DataCopy(l, xGm[0], 64);", "}"};
  Diagnostic once = atAccess(2, "DataCopy", "xGm");
  EXPECT_FALSE(placeGmOverrunAtCause(once, GmRangeAccess{128, 32, 128, false}, noLoop));
  EXPECT_EQ(once.line, 2);
  EXPECT_TRUE(once.related.empty());
}

}  // namespace
}  // namespace kwb
