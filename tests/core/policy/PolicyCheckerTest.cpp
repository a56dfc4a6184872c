// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/policy/PolicyChecker.h"

using namespace kwb;

namespace {
const char* kGood = R"(// z = x + y
#include "kernel_operator.h"
#include "kwb_tiling.h"
#include <cstdint>
struct T { uint32_t n; };
#if KWB_COMPILE_KERNEL
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling) {
  T t = *reinterpret_cast<__gm__ T*>(tiling);  // no system() here, "fopen" in a string is fine
  (void)t;
}
#endif
#if KWB_COMPILE_TILING
extern "C" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {
  T t{static_cast<uint32_t>(in->inputs[0].elements)};
  kwb_set_block_dim(out, 8);
  return kwb_set_tiling(out, &t, sizeof t);
}
#endif
)";

PolicyOptions opts() {
  return PolicyOptions{"add_custom", 5, true};
}

std::vector<Diagnostic> check(const std::string& src) {
  return checkCandidatePolicy(src, "kernel.cpp", opts());
}

std::string withLine(const std::string& extra) {
  std::string s = kGood;
  return s + extra;
}
}  // namespace

TEST(PolicyChecker, CleanCandidatePasses) {
  auto d = check(kGood);
  EXPECT_TRUE(d.empty()) << (d.empty() ? "" : d.front().format());
}

TEST(PolicyChecker, ExpertCandidatesPass) {
  std::ifstream f(std::string(KWB_SOURCE_DIR) + "/resources/tasks/add_custom/expert_candidate.cpp");
  ASSERT_TRUE(f);
  std::stringstream ss;
  ss << f.rdbuf();
  auto d = checkCandidatePolicy(ss.str(), "expert_candidate.cpp", opts());
  EXPECT_TRUE(d.empty()) << (d.empty() ? "" : d.front().format());
}

TEST(PolicyChecker, ForbiddenIncludeWithLine) {
  auto d = check(std::string("#include <fstream>\n") + kGood);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].category, "policy-violation");
  EXPECT_EQ(d[0].line, 1);
  EXPECT_EQ(d[0].api, "fstream");
  EXPECT_NE(d[0].message.find("allowed set"), std::string::npos);
}

TEST(PolicyChecker, SystemCallsAndFiles) {
  auto d = check(
      withLine("void f() { system(\"rm -rf ~\"); }\nvoid g() { FILE* p = fopen(\"/etc/passwd\", \"r\"); }\n"
               "void h() { int s = socket(2, 1, 0); }\nvoid k() { std::ofstream o; }\n"));
  std::vector<std::string> apis;
  for (auto& x : d) apis.push_back(x.api.value_or(""));
  EXPECT_NE(std::find(apis.begin(), apis.end(), "system"), apis.end());
  EXPECT_NE(std::find(apis.begin(), apis.end(), "fopen"), apis.end());
  EXPECT_NE(std::find(apis.begin(), apis.end(), "FILE"), apis.end());
  EXPECT_NE(std::find(apis.begin(), apis.end(), "socket"), apis.end());
  EXPECT_NE(std::find(apis.begin(), apis.end(), "ofstream"), apis.end());
  const std::string good = kGood;
  const int base = static_cast<int>(std::count(good.begin(), good.end(), '\n'));
  EXPECT_EQ(d.front().line, base + 1);
  EXPECT_NE(d.front().excerpt.find("system"), std::string::npos);
}

TEST(PolicyChecker, HarnessCodeRejected) {
  auto d = check(withLine(
      "int main() { uint8_t* p = (uint8_t*)AscendC::GmAlloc(64); ICPU_RUN_KF(add_custom, 1, p); }\n"));
  std::vector<std::string> apis;
  for (auto& x : d) apis.push_back(x.api.value_or(""));
  EXPECT_NE(std::find(apis.begin(), apis.end(), "main"), apis.end());
  EXPECT_NE(std::find(apis.begin(), apis.end(), "GmAlloc"), apis.end());
  EXPECT_NE(std::find(apis.begin(), apis.end(), "ICPU_RUN_KF"), apis.end());
}

TEST(PolicyChecker, AsmPastingAndConstructors) {
  auto d =
      check(withLine("#define CAT(a,b) a##b\nvoid q() { asm(\"nop\"); }\n"
                     "__attribute__((constructor)) static void early() {}\n#define KWB_COMPILE_TILING 1\n"));
  std::vector<std::string> apis;
  for (auto& x : d) apis.push_back(x.api.value_or(""));
  EXPECT_NE(std::find(apis.begin(), apis.end(), "##"), apis.end());
  EXPECT_NE(std::find(apis.begin(), apis.end(), "asm"), apis.end());
  EXPECT_NE(std::find(apis.begin(), apis.end(), "__attribute__"), apis.end());
  EXPECT_NE(std::find(apis.begin(), apis.end(), "KWB_COMPILE_TILING"), apis.end());
}

TEST(PolicyChecker, CommentsStringsAndMembersAreNotFlagged) {
  auto d = check(
      withLine("// system(\"x\"); fopen\n/* socket( */\nstruct Q; void u(Q& q) { q.open(); q->send(); }\n"
               "const char* s = \"exec fork\";\n"));
  EXPECT_TRUE(d.empty()) << (d.empty() ? "" : d.front().format());
}

TEST(PolicyChecker, MissingEntriesAndWrongArity) {
  auto d = checkCandidatePolicy("#include \"kernel_operator.h\"\n", "k.cpp", opts());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_NE(d[0].message.find("kernel entry is missing"), std::string::npos);
  EXPECT_NE(d[1].message.find("kwb_tiling"), std::string::npos);
  auto e = checkCandidatePolicy(kGood, "k.cpp", PolicyOptions{"add_custom", 6, true});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].message.find("takes 5 parameters; the contract wants 6"), std::string::npos);
  EXPECT_EQ(e[0].line, 7);
}

// A multi-file candidate (docs/candidate-contract.md, "Several files").
TEST(PolicyChecker, TheCandidatesOwnHeaderMayBeIncludedByName) {
  const std::string kernel = withLine("#include \"add_custom_tiling.h\"\n");
  EXPECT_FALSE(check(kernel).empty());  // one file: an unknown header
  const auto d =
      checkCandidateFilesPolicy(kernel, "kernel.cpp", {{"add_custom_tiling.h", "#pragma once\n"}}, opts());
  EXPECT_TRUE(d.empty()) << (d.empty() ? "" : d.front().format());
  // Only in quotes, only by the exact name.
  EXPECT_FALSE(checkCandidateFilesPolicy(withLine("#include <add_custom_tiling.h>\n"), "kernel.cpp",
                                         {{"add_custom_tiling.h", ""}}, opts())
                   .empty());
  EXPECT_FALSE(checkCandidateFilesPolicy(withLine("#include \"./add_custom_tiling.h\"\n"), "kernel.cpp",
                                         {{"add_custom_tiling.h", ""}}, opts())
                   .empty());
}

// An operator project's op_host source runs only in the tiling sandbox: it may include the standard
// containers; the kernel and the other files may not, and streams stay refused in host code too.
TEST(PolicyChecker, HostCodeMayIncludeTheStandardContainers) {
  const std::string host = "#include <vector>\n#include <numeric>\n#include <fstream>\n";
  PolicyOptions o = opts();
  o.requireTiling = false;
  const auto strict = checkCandidateFilesPolicy(withLine(""), "kernel.cpp", {{"op_host.cpp", host}}, o);
  ASSERT_EQ(strict.size(), 3u) << strict.front().format();
  o.hostCodeFiles = {"op_host.cpp"};
  const auto relaxed = checkCandidateFilesPolicy(withLine(""), "kernel.cpp", {{"op_host.cpp", host}}, o);
  ASSERT_EQ(relaxed.size(), 1u) << relaxed.front().format();
  EXPECT_EQ(relaxed[0].file, "op_host.cpp");
  EXPECT_EQ(relaxed[0].line, 3);
  const auto kernel =
      checkCandidateFilesPolicy(withLine("#include <vector>\n"), "kernel.cpp", {{"op_host.cpp", ""}}, o);
  ASSERT_EQ(kernel.size(), 1u);
  EXPECT_EQ(kernel[0].file, "kernel.cpp");
}

TEST(PolicyChecker, EveryCandidateFileMeetsTheSameRules) {
  const auto d = checkCandidateFilesPolicy(withLine("#include \"helpers.h\"\n"), "kernel.cpp",
                                           {{"helpers.h",
                                             "#pragma once\n#include <unistd.h>\ninline int f() "
                                             "{ return fork(); }\n"}},
                                           opts());
  ASSERT_GE(d.size(), 2u);
  for (const auto& x : d) EXPECT_EQ(x.file, "helpers.h") << x.format();
  EXPECT_EQ(d[0].line, 2);
}

TEST(PolicyChecker, TheTilingFunctionMayLiveInACandidateHeader) {
  std::string kernel = kGood;
  const auto at = kernel.find("#if KWB_COMPILE_TILING");
  const std::string tiling = kernel.substr(at);
  kernel = kernel.substr(0, at) + "#include \"add_custom_tiling.h\"\n";
  EXPECT_FALSE(
      checkCandidateFilesPolicy(kernel, "kernel.cpp", {{"add_custom_tiling.h", "#pragma once\n"}}, opts())
          .empty());  // defined nowhere
  const auto d = checkCandidateFilesPolicy(
      kernel, "kernel.cpp", {{"add_custom_tiling.h", "#pragma once\n#include <cstdint>\n" + tiling}}, opts());
  EXPECT_TRUE(d.empty()) << (d.empty() ? "" : d.front().format());
  // The kernel entry, though, must be in the primary file.
  EXPECT_FALSE(
      checkCandidateFilesPolicy("#include \"k.h\"\n", "kernel.cpp", {{"k.h", kGood}}, opts()).empty());
}
