// SPDX-License-Identifier: MIT
// flattenProjectIncludes (core/model/ProjectIncludes.h): msopgen's cross-folder includes name the flat
// candidate files; nothing else changes.

#include "core/model/ProjectIncludes.h"

#include <gtest/gtest.h>

using namespace kwb;

namespace {
const std::set<std::string> kNames = {"add_custom.cpp", "add_custom_host.cpp", "add_custom_tiling.h"};
}

TEST(ProjectIncludes, CrossFolderIncludesNameTheFlatCandidateFile) {
  EXPECT_EQ(flattenProjectIncludes("#include \"../op_kernel/add_custom_tiling.h\"\n", kNames),
            "#include \"add_custom_tiling.h\"\n");
  EXPECT_EQ(
      flattenProjectIncludes("  #  include   \"../op_host/add_custom_tiling.h\" // the tiling\n", kNames),
      "  #  include   \"add_custom_tiling.h\" // the tiling\n");
  EXPECT_EQ(flattenProjectIncludes("#include \"op_kernel/add_custom_tiling.h\"", kNames),
            "#include \"add_custom_tiling.h\"")
      << "no final newline is added";
  EXPECT_EQ(flattenProjectIncludes("#include \"../op_host/add_custom.cpp\"\n", kNames),
            "#include \"add_custom_host.cpp\"\n")
      << "op_host/<x>.cpp is the candidate <x>_host.cpp";
}

TEST(ProjectIncludes, EverythingElseIsLeftAsWritten) {
  const std::string text =
      "#include \"add_custom_tiling.h\"\n"
      "#include \"../op_kernel/missing.h\"\n"
      "#include \"../op_kernel/../../etc/passwd\"\n"
      "#include \"../../op_kernel/add_custom_tiling.h\"\n"
      "#include <../op_kernel/add_custom_tiling.h>\n"
      "// #include \"../op_kernel/add_custom_tiling.h\" in a comment is not a directive\n"
      "const char* s = \"#include \\\"../op_kernel/add_custom_tiling.h\\\"\";\n"
      "#define X \"../op_kernel/add_custom_tiling.h\"\n";
  EXPECT_EQ(flattenProjectIncludes(text, kNames), text);
}

TEST(ProjectIncludes, EveryFileOfACandidateIsFlattenedAndLinesKeepTheirNumbers) {
  std::string kernel =
      "#include \"kernel_operator.h\"\n#include \"../op_host/add_custom_tiling.h\"\nint k;\n";
  std::map<std::string, std::string> companions = {
      {"add_custom_host.cpp", "// host\n#include \"../op_kernel/add_custom_tiling.h\"\n"},
      {"add_custom_tiling.h", "#pragma once\n"}};
  ASSERT_TRUE(flattenProjectIncludes(kernel, "add_custom.cpp", companions));
  EXPECT_EQ(kernel, "#include \"kernel_operator.h\"\n#include \"add_custom_tiling.h\"\nint k;\n");
  EXPECT_EQ(companions.at("add_custom_host.cpp"), "// host\n#include \"add_custom_tiling.h\"\n");
  EXPECT_EQ(companions.at("add_custom_tiling.h"), "#pragma once\n");
  EXPECT_FALSE(flattenProjectIncludes(kernel, "add_custom.cpp", companions)) << "already flat";
}
