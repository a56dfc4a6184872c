// SPDX-License-Identifier: MIT
// The <<<>>> launch rewrite of `.asc` sources (core/emulator/ChevronRewrite.h): what it produces, that
// line numbers survive, that comments and literals are left alone, and its refusals.

#include "core/emulator/ChevronRewrite.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

// The rewritten text without the prologue (header + #line), for comparisons.
std::string body(const kwb::ChevronRewrite& r) {
  const auto at = r.text.find("#line 1 ");
  return r.text.substr(r.text.find('\n', at) + 1);
}

int lines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

TEST(ChevronRewrite, LaunchBecomesACallOnTheSameLine) {
  const std::string src = "int main() {\n  add_custom<<<8, nullptr, stream>>>(x, y, z);\n}\n";
  const auto r = kwb::rewriteChevronLaunches(src, "/p/add.asc");
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.launches, 1);
  EXPECT_NE(r.text.find("#line 1 \"/p/add.asc\"\n"), std::string::npos);
  EXPECT_EQ(
      body(r),
      "int main() {\n  ::kwb_sim::chevronLaunch(\"add_custom\", add_custom, ::kwb_sim::SrcLoc::current(), 8, "
      "nullptr, stream)(x, y, z);\n}\n");
}

TEST(ChevronRewrite, TemplateAndQualifiedKernelsAndMultiLineLaunchesKeepLineNumbers) {
  const std::string src =
      "void f() {\n"
      "  ns::add<float, 2048><<<blocks(n),\n"
      "      0, s>>>(\n"
      "      x, y);\n"
      "  k<<<1, nullptr, s>>>(p);\n"
      "}\n";
  const auto r = kwb::rewriteChevronLaunches(src, "k.asc");
  ASSERT_TRUE(r.errors.empty());
  EXPECT_EQ(r.launches, 2);
  const std::string b = body(r);
  EXPECT_EQ(lines(b), lines(src));
  EXPECT_NE(b.find("::kwb_sim::chevronLaunch(\"ns::add<float, 2048>\", ns::add<float, 2048>, "
                   "::kwb_sim::SrcLoc::current(), blocks(n),\n      0, s)(\n"),
            std::string::npos)
      << b;
  // The second launch stays on line 5.
  std::size_t at = 0;
  for (int i = 0; i < 4; ++i) at = b.find('\n', at) + 1;
  EXPECT_EQ(b.compare(at, 27, "  ::kwb_sim::chevronLaunch("), 0) << b;
}

TEST(ChevronRewrite, AMixKernelsLaunchCarriesTheRatioTheSourceDeclares) {
  // A template kernel's instances lose the section attribute __mix__ expands to, so the launch passes
  // the declared ratio; kernels without __mix__ (or a __mix__ in a comment) get none.
  const std::string src =
      "template <uint32_t M>\n"
      "__global__ __mix__(1, 2) void mm_vec(__gm__ uint8_t* x) {}\n"
      "// __mix__(1, 1) void plain(int)\n"
      "__global__ __aicore__ void plain(__gm__ uint8_t* x) {}\n"
      "__global__ __mix__( 1 ,1 )\nvoid one_one(__gm__ uint8_t* x) {}\n"
      "int main() {\n"
      "  mm_vec<512><<<2, 0, s>>>(p);\n"
      "  plain<<<2, 0, s>>>(p);\n"
      "  ns::one_one<<<1, 0, s>>>(p);\n"
      "}\n";
  const auto r = kwb::rewriteChevronLaunches(src, "m.asc");
  ASSERT_TRUE(r.errors.empty());
  EXPECT_EQ(r.launches, 3);
  const std::string b = body(r);
  EXPECT_EQ(lines(b), lines(src));
  EXPECT_NE(b.find("::kwb_sim::chevronLaunch(\"mm_vec<512>\", mm_vec<512>, ::kwb_sim::SrcLoc::current(), "
                   "::kwb_sim::MixDecl{1, 2}, 2, 0, s)(p);"),
            std::string::npos)
      << b;
  EXPECT_NE(b.find("::kwb_sim::chevronLaunch(\"plain\", plain, ::kwb_sim::SrcLoc::current(), 2, 0, s)(p);"),
            std::string::npos)
      << b;
  EXPECT_NE(b.find("::kwb_sim::SrcLoc::current(), ::kwb_sim::MixDecl{1, 1}, 1, 0, s)(p);"), std::string::npos)
      << b;
}

TEST(ChevronRewrite, CommentsAndLiteralsAreNotLaunches) {
  const std::string src =
      "// k<<<1, 0, s>>>(x);\n"
      "/* k<<<1, 0, s>>>(x); */\n"
      "const char* a = \"k<<<1, 0, s>>>(x)\";\n"
      "const char* b = R\"(k<<<1, 0, s>>>(x))\";\n"
      "int c = 1'000;\n";
  const auto r = kwb::rewriteChevronLaunches(src, "c.asc");
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.launches, 0);
  EXPECT_EQ(body(r), src);
  EXPECT_FALSE(kwb::needsChevronRewrite("host.cpp", src));
  EXPECT_TRUE(kwb::needsChevronRewrite("host.cpp", "k<<<1, 0, s>>>(x);"));
  EXPECT_TRUE(kwb::needsChevronRewrite("plain.asc", "int x;"));
}

TEST(ChevronRewrite, RefusalsNameTheLineAndTheRule) {
  const auto two = kwb::rewriteChevronLaunches("\n\nk<<<8, s>>>(x);\n", "a.asc");
  ASSERT_EQ(two.errors.size(), 1u);
  EXPECT_EQ(two.errors[0].line, 3);
  EXPECT_NE(two.errors[0].message.find("gives 2 launch values"), std::string::npos) << two.errors[0].message;
  EXPECT_NE(two.errors[0].message.find("k<<<blockDim, l2ctrl, stream>>>"), std::string::npos);

  const auto open = kwb::rewriteChevronLaunches("k<<<8, 0, s(x);\n", "a.asc");
  ASSERT_EQ(open.errors.size(), 1u);
  EXPECT_NE(open.errors[0].message.find("no matching >>>"), std::string::npos);

  const auto noArgs = kwb::rewriteChevronLaunches("k<<<8, 0, s>>>;\n", "a.asc");
  ASSERT_EQ(noArgs.errors.size(), 1u);
  EXPECT_NE(noArgs.errors[0].message.find("argument list"), std::string::npos);

  const auto noName = kwb::rewriteChevronLaunches("(<<<8, 0, s>>>(x));\n", "a.asc");
  ASSERT_EQ(noName.errors.size(), 1u);
  EXPECT_NE(noName.errors[0].message.find("kernel's name"), std::string::npos);
}
