// SPDX-License-Identifier: MIT
// The structural reading of candidate text the cause analysis relies on (core/diag/CodeStructure).
#include "core/diag/CodeStructure.h"

#include <gtest/gtest.h>

#include <sstream>

namespace kwb {
namespace {

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::size_t offsetOf(const CodeText& t, int line, const std::string& what) {
  const std::size_t start = *t.lineStart(line);
  return t.code().find(what, start);
}

TEST(CodeStructure, CommentsAndStringsAreBlankedWithLinesKept) {
  const CodeText t(
      linesOf("int a; // for (;;) {\n/* {\n } */ const char* s = \"for (x) {\";\nint b = 1'000;\n"));
  EXPECT_EQ(t.code().find("for"), std::string::npos);
  EXPECT_EQ(t.code().find('{'), std::string::npos);
  EXPECT_EQ(t.lineOf(t.code().find("int b")), 4);
  EXPECT_NE(t.code().find("1'000"), std::string::npos);  // a digit separator is not a literal
}

TEST(CodeStructure, InnermostLoopWithBracesOrASingleStatement) {
  const CodeText t(
      linesOf("void f() {\n"
              "  for (int i = 0; i < n; ++i) {\n"
              "    for (int j = 0; j <= m; ++j) g(i, j);\n"
              "    h(i);\n"
              "  }\n"
              "  k();\n"
              "}\n"));
  const auto inner = innermostLoopAround(t, offsetOf(t, 3, "g("));
  ASSERT_TRUE(inner);
  EXPECT_EQ(inner->headerLine, 3);
  EXPECT_EQ(inner->header, "int j = 0; j <= m; ++j");
  const auto outer = innermostLoopAround(t, offsetOf(t, 4, "h("));
  ASSERT_TRUE(outer);
  EXPECT_EQ(outer->headerLine, 2);
  EXPECT_FALSE(innermostLoopAround(t, offsetOf(t, 6, "k(")));
}

TEST(CodeStructure, FunctionAroundSkipsControlBlocksAndNamesParameters) {
  const CodeText t(
      linesOf("class K {\n"
              "  __aicore__ inline void CopyIn(uint32_t off, const T& x, int n = 4) const {\n"
              "    if (off) { use(off); }\n"
              "  }\n"
              "};\n"
              "void K::Other(void) { body(); }\n"));
  const auto f = functionAround(t, offsetOf(t, 3, "use("));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "CopyIn");
  EXPECT_EQ(f->params, (std::vector<std::string>{"off", "x", "n"}));
  const auto g = functionAround(t, offsetOf(t, 6, "body("));
  ASSERT_TRUE(g);
  EXPECT_EQ(g->name, "Other");
  EXPECT_FALSE(functionAround(t, offsetOf(t, 1, "class")));
}

TEST(CodeStructure, CallsExcludeDefinitionsAndDeclarations) {
  const CodeText t(
      linesOf("void CopyIn(int r);\n"
              "void CopyIn(int r) { x(r); }\n"
              "void K::CopyIn(int r) const { x(r); }\n"
              "void P() { CopyIn(1); this->CopyIn(2); return CopyIn(3); }\n"));
  std::vector<int> lines;
  for (auto p : callsOf(t, "CopyIn")) lines.push_back(t.lineOf(p));
  EXPECT_EQ(lines, (std::vector<int>{4, 4, 4}));
}

TEST(CodeStructure, CallArgumentsSplitAtTopLevelOnly) {
  const CodeText t(
      linesOf("  DataCopyPad(l, xGm[a, b], DataCopyExtParams{1, static_cast<uint32_t>(n * 2), 0},\n"
              "              DataCopyPadExtParams<half>{false, 0, 0, 0});\n"));
  const auto call = callOnLine(t, 1, "DataCopyPad");
  ASSERT_TRUE(call);
  const auto args = callArguments(t, *call);
  ASSERT_EQ(args.size(), 4u);
  EXPECT_EQ(args[1], "xGm[a, b]");
  EXPECT_EQ(args[2], "DataCopyExtParams{1, static_cast<uint32_t>(n * 2), 0}");
  EXPECT_FALSE(callOnLine(t, 2, "DataCopyPad"));
}

TEST(CodeStructure, LastAssignmentIgnoresComparisonsAndOtherObjectsMembers) {
  const CodeText t(
      linesOf("void f() {\n"
              "  uint32_t n = a ? b : c;\n"
              "  if (n == 3) p.n = 4;\n"
              "  n = tile_;\n"
              "  g(n);\n"
              "}\n"));
  const auto a = lastAssignment(t, "n", 0, offsetOf(t, 5, "g("));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->line, 4);
  EXPECT_EQ(a->value, "tile_");
  const auto first = lastAssignment(t, "n", 0, offsetOf(t, 3, "if"));
  ASSERT_TRUE(first);
  EXPECT_EQ(first->value, "a ? b : c");
}

TEST(CodeStructure, VariablesInLeaveOutTypesCastsCallsAndMembers) {
  EXPECT_EQ(variablesIn("static_cast<uint32_t>(count * sizeof(half)) + t.tileLength + f(x) + 1e-5f"),
            (std::vector<std::string>{"count", "t", "x"}));
  EXPECT_EQ(variablesIn("DataCopyExtParams{1, n * 4, 0, 0, 0}"), (std::vector<std::string>{"n"}));
}

}  // namespace
}  // namespace kwb
