// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "core/diff/LineDiff.h"

using namespace kwb;

TEST(LineDiff, IdenticalTextsHaveOnlySameRows) {
  auto d = diffLines("a\nb\nc\n", "a\nb\nc\n");
  EXPECT_TRUE(d.identical());
  ASSERT_EQ(d.rows.size(), 3u);
  EXPECT_EQ(d.rows[2].leftLine, 3);
  EXPECT_EQ(unifiedDiff(d, "a", "b"), "");
}

TEST(LineDiff, ModifiedLineBecomesOneChangedRow) {
  auto d = diffLines("int a;\nconstexpr int BUFFER_NUM = 1;\nint c;\n",
                     "int a;\nconstexpr int BUFFER_NUM = 2;\nint c;\n");
  ASSERT_EQ(d.rows.size(), 3u);
  EXPECT_EQ(d.rows[1].kind, DiffKind::Changed);
  EXPECT_EQ(d.rows[1].leftLine, 2);
  EXPECT_EQ(d.rows[1].rightLine, 2);
  EXPECT_EQ(d.rows[1].right, "constexpr int BUFFER_NUM = 2;");
  EXPECT_EQ(d.added, 1);
  EXPECT_EQ(d.removed, 1);
}

TEST(LineDiff, InsertionsAndDeletionsKeepLineNumbers) {
  auto d = diffLines("a\nb\nc\nd\n", "a\nx\ny\nc\nd\ne\n");
  // b -> x (changed), y added, e added.
  int changed = 0, added = 0;
  for (const auto& r : d.rows) {
    changed += r.kind == DiffKind::Changed;
    added += r.kind == DiffKind::Added;
  }
  EXPECT_EQ(changed, 1);
  EXPECT_EQ(added, 2);
  EXPECT_EQ(d.rows.back().rightLine, 6);
  EXPECT_EQ(d.rows.back().right, "e");
}

TEST(LineDiff, UnifiedDiffHasHeadersAndHunk) {
  std::string left, right;
  for (int i = 1; i <= 20; ++i) {
    left += "line" + std::to_string(i) + "\n";
    right += (i == 10 ? std::string("changed") : "line" + std::to_string(i)) + "\n";
  }
  const std::string u = unifiedDiff(diffLines(left, right), "iter-1/kernel.cpp", "iter-2/kernel.cpp", 3);
  EXPECT_NE(u.find("--- iter-1/kernel.cpp\n+++ iter-2/kernel.cpp\n"), std::string::npos);
  EXPECT_NE(u.find("@@ -7,7 +7,7 @@\n"), std::string::npos) << u;
  EXPECT_NE(u.find("-line10\n+changed\n"), std::string::npos);
  EXPECT_EQ(u.find("line3\n"), std::string::npos);
}

TEST(LineDiff, CrLfIsIgnored) {
  EXPECT_TRUE(diffLines("a\r\nb\r\n", "a\nb\n").identical());
}
