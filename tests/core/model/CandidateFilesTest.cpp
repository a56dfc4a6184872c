// SPDX-License-Identifier: MIT
// The one primary-file rule and the checks on candidate file names and sizes (core/model/Candidate.h,
// docs/candidate-contract.md "Several files").
#include <gtest/gtest.h>

#include "core/model/Candidate.h"

namespace kwb {
namespace {

const std::string kEntry = "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x) {}\n";
const std::string kHeader = "#pragma once\ninline __aicore__ void helper() {}\n";  // device code, no entry

TEST(PrimaryFile, TheOneSourceFileWithAKernelEntry) {
  // Whatever the order or names: the header is never the primary, even with __aicore__ code.
  EXPECT_EQ(choosePrimaryFile({{"a_tiling.h", kHeader}, {"z_kernel.cpp", kEntry}}).name, "z_kernel.cpp");
  EXPECT_EQ(choosePrimaryFile({{"add_custom.cpp", kEntry}, {"kernel.cpp", "// helpers\n"}}).name,
            "add_custom.cpp");
  // An entry in a header does not make it a translation unit.
  EXPECT_EQ(choosePrimaryFile({{"entry.h", kEntry}, {"kernel.cpp", "#include \"entry.h\"\n"}}).name,
            "kernel.cpp");
  EXPECT_TRUE(choosePrimaryFile({{"a.cpp", kEntry}}).note.empty());
}

TEST(PrimaryFile, SeveralEntriesPreferKernelCppElseTheFirstByNameAndSaySo) {
  const PrimaryFileChoice a =
      choosePrimaryFile({{"b.cpp", kEntry}, {"kernel.cpp", kEntry}, {"a.cpp", kEntry}});
  EXPECT_EQ(a.name, "kernel.cpp");
  EXPECT_NE(a.note.find("3 files define a kernel entry"), std::string::npos) << a.note;
  EXPECT_NE(a.note.find("kernel.cpp was compiled and a.cpp, b.cpp"), std::string::npos) << a.note;
  const PrimaryFileChoice b = choosePrimaryFile({{"v2.cpp", kEntry}, {"v1.cpp", kEntry}});
  EXPECT_EQ(b.name, "v1.cpp");
  EXPECT_NE(b.note.find("v1.cpp was compiled and v2.cpp"), std::string::npos) << b.note;
  EXPECT_EQ(choosePrimaryFile({{"v2.cpp", kEntry}, {"v1.cpp", kEntry}}, "v2.cpp").name, "v2.cpp");
}

TEST(PrimaryFile, NoEntryAnywhere) {
  EXPECT_EQ(choosePrimaryFile({}).name, "");
  EXPECT_EQ(choosePrimaryFile({{"a.cpp", "x"}, {"kernel.cpp", "y"}}).name, "kernel.cpp");
  EXPECT_EQ(choosePrimaryFile({{"a.h", "x"}, {"b.cc", "y"}, {"c.cpp", "z"}}).name, "b.cc");
  EXPECT_EQ(choosePrimaryFile({{"b.h", "x"}, {"a.h", "y"}}).name, "a.h");
  Candidate c;
  EXPECT_EQ(primaryCandidateFile(c), (std::pair<std::string, std::string>{"kernel.cpp", ""}));
  c.files = {{"tiling.h", kHeader}, {"op.cpp", kEntry}};
  EXPECT_EQ(primaryCandidateFile(c), (std::pair<std::string, std::string>{"op.cpp", kEntry}));
}

bool mentions(const std::vector<std::string>& problems, const std::string& needle) {
  for (const auto& p : problems)
    if (p.find(needle) != std::string::npos) return true;
  return false;
}

TEST(CandidateFiles, UnsafeNamesAreRefusedWithTheReason) {
  EXPECT_TRUE(candidateFileProblems({{"kernel.cpp", kEntry}, {"add_custom_tiling.h", kHeader}}).empty());
  EXPECT_TRUE(mentions(candidateFileProblems({{"/etc/x.h", ""}}), "\"/etc/x.h\" is an absolute path"));
  EXPECT_TRUE(mentions(candidateFileProblems({{"../x.h", ""}}), "\"../x.h\" leaves the candidate's folder"));
  EXPECT_TRUE(mentions(candidateFileProblems({{"inc/../../x.h", ""}}), "leaves the candidate's folder"));
  EXPECT_TRUE(mentions(candidateFileProblems({{"inc/x.h", ""}}), "\"inc/x.h\" has a directory"));
  EXPECT_TRUE(mentions(candidateFileProblems({{"..", ""}}), "\"..\" is not allowed"));
  EXPECT_TRUE(mentions(candidateFileProblems({{".hidden.h", ""}}), "is not allowed"));
  EXPECT_TRUE(mentions(candidateFileProblems({{"a b.h", ""}}), "is not allowed"));
  EXPECT_TRUE(
      mentions(candidateFileProblems({{"Kernel.cpp", ""}, {"kernel.cpp", ""}}), "differ only in case"));
}

TEST(CandidateFiles, CountAndSizeAreBounded) {
  std::map<std::string, std::string> many;
  for (std::size_t k = 0; k <= kMaxCandidateFiles; ++k) many["f" + std::to_string(k) + ".h"] = "x";
  EXPECT_TRUE(mentions(candidateFileProblems(many), "at most 8 are accepted"));
  many.erase(many.begin());
  EXPECT_TRUE(candidateFileProblems(many).empty());
  EXPECT_TRUE(mentions(candidateFileProblems({{"big.h", std::string(kMaxCandidateFileBytes + 1, 'x')}}),
                       "\"big.h\" has 524289 bytes"));
  std::map<std::string, std::string> large;
  for (int k = 0; k < 3; ++k)
    large["p" + std::to_string(k) + ".h"] = std::string(kMaxCandidateFileBytes - 1, 'x');
  EXPECT_TRUE(mentions(candidateFileProblems(large), "bytes together"));
}

}  // namespace
}  // namespace kwb
