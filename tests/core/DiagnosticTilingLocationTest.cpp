// SPDX-License-Identifier: MIT
// locateTilingCalls: the harness's findings about the tiling function get the line of the call.
#include <gtest/gtest.h>

#include "core/diag/DiagnosticLocation.h"

namespace kwb {
namespace {

Diagnostic harnessFinding(const std::string& api) {
  Diagnostic d;
  d.source = "harness";
  d.category = "invalid-param";
  d.api = api;
  d.message = "kwb_tiling chose blockDim 0";
  return d;
}

constexpr const char* kSource =
    "// kwb_set_block_dim(out, n) is called once below\n"
    "#if KWB_COMPILE_TILING\n"
    "extern \"C\" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {\n"
    "  my_kwb_set_block_dim(out, 2);\n"
    "  kwb_set_block_dim(out, 0);\n"
    "  return kwb_set_tiling(out, &t, sizeof t);\n"
    "}\n";

TEST(DiagnosticTilingLocation, ABadBlockDimPointsAtTheOnlyCallOutsideComments) {
  std::vector<Diagnostic> ds{harnessFinding("kwb_set_block_dim"), harnessFinding("kwb_tiling")};
  EXPECT_EQ(locateTilingCalls(ds, "kernel.cpp", kSource), 2);
  EXPECT_EQ(ds[0].file, "kernel.cpp");
  EXPECT_EQ(ds[0].line, 5);
  EXPECT_NE(ds[0].excerpt.find("kwb_set_block_dim(out, 0);"), std::string::npos);
  EXPECT_EQ(ds[1].line, 3);  // kwb_tiling's definition
}

TEST(DiagnosticTilingLocation, SeveralCallsOrOtherFindingsStayWithoutALine) {
  std::vector<Diagnostic> ds{harnessFinding("kwb_set_block_dim")};
  const std::string twice = std::string(kSource) + "void f() { kwb_set_block_dim(out, 1); }\n";
  EXPECT_EQ(locateTilingCalls(ds, "kernel.cpp", twice), 0);
  EXPECT_EQ(ds[0].line, 0);
  Diagnostic emulator = harnessFinding("kwb_set_block_dim");
  emulator.source = "emulator";
  Diagnostic other = harnessFinding("DataCopy");
  std::vector<Diagnostic> rest{emulator, other};
  EXPECT_EQ(locateTilingCalls(rest, "kernel.cpp", kSource), 0);
  EXPECT_TRUE(rest[0].file.empty());
  EXPECT_TRUE(rest[1].file.empty());
}

}  // namespace
}  // namespace kwb
