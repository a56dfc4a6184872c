// SPDX-License-Identifier: MIT
// Golden tests: real gcc 12 / clang 14 / ld / lld / nvcc 13 output captured by
// tests/fixtures/compiler/capture.sh, plus one hand-written bisheng capture in the documented format.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/diag/CompilerDiagnosticParser.h"

using namespace kwb;

namespace {

std::string readFixture(const std::string& name) {
  const std::string path = std::string(KWB_FIXTURES_DIR) + "/compiler/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Want {
  std::string file;
  int line;
  int column;
  Severity severity;
  std::string category;
  std::string message;
  std::size_t notes;
};

std::string describe(const Diagnostic& d) {
  return d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + " " +
         std::string(toString(d.severity)) + " [" + d.category + "] " + d.message + " (notes " +
         std::to_string(d.notes.size()) + ")";
}

std::string describe(const Want& w) {
  return w.file + ":" + std::to_string(w.line) + ":" + std::to_string(w.column) + " " +
         std::string(toString(w.severity)) + " [" + w.category + "] " + w.message + " (notes " +
         std::to_string(w.notes) + ")";
}

void expectDiagnostics(const std::vector<Diagnostic>& got, const std::vector<Want>& want) {
  std::vector<std::string> g, w;
  for (const auto& d : got) {
    g.push_back(describe(d));
    EXPECT_EQ(d.source, "compiler") << describe(d);
  }
  for (const auto& x : want) w.push_back(describe(x));
  EXPECT_EQ(g, w);
}

constexpr auto E = Severity::Error;
constexpr auto W = Severity::Warning;
constexpr auto F = Severity::Fatal;
const std::string CE = "compile-error";
const std::string LE = "link-error";

}  // namespace

TEST(CompilerDiagnosticParser, GccUndeclaredIdentifierWithFunctionScope) {
  const auto out = parseCompilerOutput(readFixture("gcc_undeclared.txt"));
  expectDiagnostics(out.diagnostics,
                    {{"src/undeclared.cpp", 7, 16, E, CE, "‘bias’ was not declared in this scope", 1},
                     {"src/undeclared.cpp", 12, 3, E, CE, "‘total’ was not declared in this scope", 1}});
  ASSERT_EQ(out.diagnostics.size(), 2u);
  EXPECT_EQ(out.diagnostics[0].notes[0], "In function ‘float sum(const float*, std::size_t)’");
  EXPECT_EQ(out.diagnostics[1].notes[0], "In function ‘int main()’");
  EXPECT_EQ(out.diagnostics[0].excerpt,
            "    7 |   return acc + bias;\n"
            "      |                ^~~~");
  EXPECT_FALSE(out.reportedErrors);  // gcc prints no summary
  EXPECT_EQ(out.errorCount(), 2);
}

TEST(CompilerDiagnosticParser, GccInCLocaleUsesAsciiQuotes) {
  expectDiagnostics(parseCompilerDiagnostics(readFixture("gcc_undeclared_c_locale.txt")),
                    {{"src/undeclared.cpp", 7, 16, E, CE, "'bias' was not declared in this scope", 1},
                     {"src/undeclared.cpp", 12, 3, E, CE, "'total' was not declared in this scope", 1}});
}

TEST(CompilerDiagnosticParser, ClangUndeclaredIdentifierAndSummary) {
  const auto out = parseCompilerOutput(readFixture("clang_undeclared.txt"));
  expectDiagnostics(out.diagnostics,
                    {{"src/undeclared.cpp", 7, 16, E, CE, "use of undeclared identifier 'bias'", 0},
                     {"src/undeclared.cpp", 12, 3, E, CE, "use of undeclared identifier 'total'", 0}});
  ASSERT_EQ(out.diagnostics.size(), 2u);
  EXPECT_EQ(out.diagnostics[0].excerpt,
            "  return acc + bias;\n"
            "               ^");
  EXPECT_EQ(out.reportedErrors, 2);
  EXPECT_FALSE(out.reportedWarnings);
}

TEST(CompilerDiagnosticParser, GccTemplateInstantiationContextBecomesNotes) {
  const auto d = parseCompilerDiagnostics(readFixture("gcc_template_mismatch.txt"));
  expectDiagnostics(d, {{"src/template_mismatch.cpp", 10, 12, E, CE,
                         "no match for ‘operator*’ (operand types are ‘const Tile’ and ‘int’)", 2},
                        {"src/template_mismatch.cpp", 15, 20, E, CE,
                         "conversion from ‘vector<float>’ to non-scalar type ‘vector<int>’ requested", 2}});
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].notes,
            (std::vector<std::string>{"In instantiation of ‘T scale(const T&, int) [with T = Tile]’",
                                      "src/template_mismatch.cpp:21:17: required from here"}));
  EXPECT_EQ(d[1].notes[1], "src/template_mismatch.cpp:23:17: required from here");
}

TEST(CompilerDiagnosticParser, ClangTemplateNotesFollowTheError) {
  const auto out = parseCompilerOutput(readFixture("clang_template_mismatch.txt"));
  expectDiagnostics(out.diagnostics,
                    {{"src/template_mismatch.cpp", 10, 12, E, CE,
                      "invalid operands to binary expression ('const Tile' and 'int')", 1},
                     {"src/template_mismatch.cpp", 15, 20, E, CE,
                      "no viable conversion from 'const vector<float>' to 'vector<int>'", 6}});
  ASSERT_EQ(out.diagnostics.size(), 2u);
  EXPECT_EQ(out.diagnostics[0].notes[0],
            "src/template_mismatch.cpp:21:12: note: in instantiation of function template specialization "
            "'scale<Tile>' requested here");
  EXPECT_EQ(out.diagnostics[0].excerpt,
            "  return v * factor;\n"
            "         ~ ^ ~~~~~~");
  // The candidate notes' own source lines are not mixed into the error's excerpt.
  EXPECT_EQ(out.diagnostics[1].excerpt.find("vector(const vector&"), std::string::npos);
  EXPECT_EQ(out.reportedErrors, 2);
}

TEST(CompilerDiagnosticParser, MissingIncludeIsFatal) {
  const auto gcc = parseCompilerOutput(readFixture("gcc_missing_include.txt"));
  expectDiagnostics(gcc.diagnostics, {{"src/missing_include.cpp", 2, 10, F, CE,
                                       "kernel_operator.h: No such file or directory", 0}});
  EXPECT_TRUE(gcc.terminated);
  EXPECT_EQ(gcc.errorCount(), 1);

  const auto clang = parseCompilerOutput(readFixture("clang_missing_include.txt"));
  expectDiagnostics(clang.diagnostics,
                    {{"src/missing_include.cpp", 2, 10, F, CE, "'kernel_operator.h' file not found", 0}});
  ASSERT_EQ(clang.diagnostics.size(), 1u);
  EXPECT_EQ(clang.diagnostics[0].excerpt,
            "#include \"kernel_operator.h\"\n"
            "         ^~~~~~~~~~~~~~~~~~~");
  EXPECT_EQ(clang.reportedErrors, 1);
}

TEST(CompilerDiagnosticParser, GccWarningsAndErrorsMixed) {
  const auto out = parseCompilerOutput(readFixture("gcc_mixed.txt"));
  expectDiagnostics(
      out.diagnostics,
      {{"src/mixed.cpp", 6, 9, W, CE,
        "comparison of integer expressions of different signedness: ‘int32_t’ {aka ‘int’} and ‘uint32_t’ "
        "{aka "
        "‘unsigned int’} [-Wsign-compare]",
        1},
       {"src/mixed.cpp", 5, 7, W, CE, "unused variable ‘unused’ [-Wunused-variable]", 1},
       {"src/mixed.cpp", 12, 10, E, CE,
        "return-statement with a value, in function returning ‘void’ [-fpermissive]", 1},
       {"src/mixed.cpp", 18, 18, E, CE, "invalid conversion from ‘const char*’ to ‘int’ [-fpermissive]", 2}});
  ASSERT_EQ(out.diagnostics.size(), 4u);
  // The scope line is printed once and applies to every diagnostic of that function.
  EXPECT_EQ(out.diagnostics[1].notes[0], "In function ‘int32_t clampIndex(int32_t, uint32_t)’");
  EXPECT_EQ(
      out.diagnostics[3].notes[1],
      "src/mixed.cpp:10:49: note:   initializing argument 3 of ‘void copyTile(float*, const float*, int)’");
  // gcc's label lines under the caret stay in the excerpt; the note's excerpt does not.
  EXPECT_EQ(out.diagnostics[3].excerpt,
            "   18 |   copyTile(a, b, \"8\");\n"
            "      |                  ^~~\n"
            "      |                  |\n"
            "      |                  const char*");
  EXPECT_EQ(out.warningCount(), 2);
  EXPECT_EQ(out.errorCount(), 2);
}

TEST(CompilerDiagnosticParser, ClangWarningsAndErrorsMixedWithCombinedSummary) {
  const auto out = parseCompilerOutput(readFixture("clang_mixed.txt"));
  expectDiagnostics(out.diagnostics,
                    {{"src/mixed.cpp", 5, 7, W, CE, "unused variable 'unused' [-Wunused-variable]", 0},
                     {"src/mixed.cpp", 6, 9, W, CE,
                      "comparison of integers of different signs: 'int32_t' (aka 'int') and 'uint32_t' (aka "
                      "'unsigned int') "
                      "[-Wsign-compare]",
                      0},
                     {"src/mixed.cpp", 12, 3, E, CE,
                      "void function 'copyTile' should not return a value [-Wreturn-type]", 0},
                     {"src/mixed.cpp", 18, 3, E, CE, "no matching function for call to 'copyTile'", 1}});
  EXPECT_EQ(out.reportedWarnings, 2);
  EXPECT_EQ(out.reportedErrors, 2);
}

TEST(CompilerDiagnosticParser, IncludeChainsAreNotesInnermostFirst) {
  const std::vector<std::string> chain{"included from src/include_chain/middle.h:3",
                                       "included from src/include_chain.cpp:2"};
  const auto gcc = parseCompilerDiagnostics(readFixture("gcc_include_chain.txt"));
  expectDiagnostics(
      gcc, {{"src/include_chain/inner.h", 5, 25, E, CE, "‘elem_t’ was not declared in this scope", 3}});
  ASSERT_EQ(gcc.size(), 1u);
  EXPECT_EQ(std::vector<std::string>(gcc[0].notes.begin(), gcc[0].notes.begin() + 2), chain);
  EXPECT_EQ(gcc[0].notes[2], "In function ‘int tileBytes(int)’");

  // clang prints the chain outermost first, one "In file included from" line per level.
  const auto clang = parseCompilerDiagnostics(readFixture("clang_include_chain.txt"));
  expectDiagnostics(
      clang, {{"src/include_chain/inner.h", 5, 25, E, CE, "use of undeclared identifier 'elem_t'", 2}});
  ASSERT_EQ(clang.size(), 1u);
  EXPECT_EQ(clang[0].notes, chain);
}

TEST(CompilerDiagnosticParser, IncludeChainCarriesOverToFollowingErrorsInTheSameHeader) {
  const std::string text =
      "In file included from main.cpp:1:\n"
      "./tile.h:3:1: error: unknown type name 'elem_t'\n"
      "elem_t a;\n"
      "^\n"
      "./tile.h:4:1: error: unknown type name 'elem_t'\n"
      "elem_t b;\n"
      "^\n"
      "main.cpp:5:3: error: use of undeclared identifier 'x'\n"
      "  x = 1;\n"
      "  ^\n"
      "3 errors generated.\n";
  const auto d = parseCompilerDiagnostics(text);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].notes, std::vector<std::string>{"included from main.cpp:1"});
  EXPECT_EQ(d[1].notes, std::vector<std::string>{"included from main.cpp:1"});
  EXPECT_TRUE(d[2].notes.empty());
}

TEST(CompilerDiagnosticParser, EmulatorStaticAssertSetsCategoryAndApi) {
  for (const char* name : {"gcc_kwb_sim_static_assert.txt", "clang_kwb_sim_static_assert.txt"}) {
    SCOPED_TRACE(name);
    const auto d = parseCompilerDiagnostics(readFixture(name));
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].category, "unsupported-api");
    EXPECT_EQ(d[0].api, "Gather");
    EXPECT_EQ(d[0].line, 8);
    EXPECT_EQ(d[1].category, "unsupported-dtype");
    EXPECT_EQ(d[1].api, "Exp");  // "Exp does not accept ...": the emulator's form names the API first
    EXPECT_EQ(d[1].line, 13);
    EXPECT_NE(d[0].message.find("kwb-sim: unsupported-api: Gather is not emulated yet"), std::string::npos);
  }
  expectDiagnostics(parseCompilerDiagnostics(readFixture("gcc_kwb_sim_static_assert.txt")),
                    {{"src/kwb_sim_static_assert.cpp", 8, 17, E, "unsupported-api",
                      "static assertion failed: kwb-sim: unsupported-api: Gather is not emulated yet; use "
                      "DataCopy plus scalar "
                      "indexing",
                      3},
                     {"src/kwb_sim_static_assert.cpp", 13, 27, E, "unsupported-dtype",
                      "static assertion failed: kwb-sim: unsupported-dtype: Exp does not accept 8-bit types "
                      "(int8_t/uint8_t)",
                      3}});
}

// Real g++ output of the emulator corpus' broken programs against the emulator's own headers: the
// rejection is reported inside a header, with the user's call in "required from here".
TEST(CompilerDiagnosticParser, EmulatorHeaderRejectionsNameTheApiAndMoveToTheUsersLine) {
  auto inUserCode = [](std::string_view f) { return f.rfind("emulator/include/", 0) != 0; };
  struct Case {
    const char* fixture;
    const char* category;
    const char* api;
    const char* header;
    const char* user;
    int line, column;
  };
  for (const Case& c :
       {Case{"gcc_kwb_sim_emulator_dtype.txt", "unsupported-dtype", "Duplicate",
             "emulator/include/kwb_sim/base.h:124:39", "src/unsupported_dtype.cpp", 21, 14},
        Case{"gcc_kwb_sim_emulator_api.txt", "unsupported-api", "Gather",
             "emulator/include/kwb_sim/unsupported.h:16:30", "src/unsupported_api.cpp", 35, 11}}) {
    SCOPED_TRACE(c.fixture);
    auto d = parseCompilerDiagnostics(readFixture(c.fixture));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, E);
    EXPECT_EQ(d[0].category, c.category);
    EXPECT_EQ(d[0].api, c.api);
    EXPECT_EQ(d[0].file + ":" + std::to_string(d[0].line) + ":" + std::to_string(d[0].column), c.header);
    const std::string requiredFrom = std::string(c.user) + ":" + std::to_string(c.line) + ":" +
                                     std::to_string(c.column) + ": required from here";
    EXPECT_NE(std::find(d[0].notes.begin(), d[0].notes.end(), requiredFrom), d[0].notes.end());
    EXPECT_EQ(relocateToUserCode(d, inUserCode), 1);
    EXPECT_EQ(d[0].file, c.user);
    EXPECT_EQ(d[0].line, c.line);
    EXPECT_EQ(d[0].column, c.column);
    EXPECT_EQ(d[0].notes.back(), std::string("reported at ") + c.header);
    EXPECT_TRUE(d[0].excerpt.empty());
  }
}

TEST(CompilerDiagnosticParser, UnsupportedDtypeNamesAnApiOnlyInTheEmulatorsForm) {
  const auto d = parseCompilerDiagnostics(
      "k.cpp:3:5: error: static assertion failed: kwb-sim: unsupported-dtype: Cast does not support half -> "
      "int8_t on Ascend910B1\n"
      "k.cpp:4:5: error: static assertion failed: kwb-sim: unsupported-dtype: 8-bit types are not "
      "supported\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].category, "unsupported-dtype");
  EXPECT_EQ(d[0].api, "Cast");
  EXPECT_EQ(d[1].category, "unsupported-dtype");
  EXPECT_FALSE(d[1].api);
}

TEST(CompilerDiagnosticParser, KwbSimTextOutsideAnAssertionKeepsCompileError) {
  const auto d = parseCompilerDiagnostics(
      "k.cpp:3:5: error: use of undeclared identifier 'kwb'\n"
      "k.cpp:4:5: warning: static assertion kwb-sim: unsupported-api: X\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].category, "compile-error");
  EXPECT_EQ(d[1].category, "compile-error");  // a warning is not the emulator rejecting anything
}

TEST(CompilerDiagnosticParser, GnuLdUndefinedReference) {
  const auto out = parseCompilerOutput(readFixture("gcc_link_undefined.txt"));
  expectDiagnostics(out.diagnostics,
                    {{"link_undefined.cpp", 0, 0, E, LE, "undefined reference to `helper(int)'", 1},
                     {"link_undefined.cpp", 0, 0, E, LE, "undefined reference to `tilingKey()'", 1}});
  ASSERT_EQ(out.diagnostics.size(), 2u);
  EXPECT_EQ(out.diagnostics[1].notes[0], "in function `main' (link_undefined.o)");
  EXPECT_TRUE(out.linkFailed);  // collect2's line is folded into the flag, not a third diagnostic
}

TEST(CompilerDiagnosticParser, GnuLdWithDebugInfoNamesTheLine) {
  const auto out = parseCompilerOutput(readFixture("gcc_link_undefined_debug.txt"));
  expectDiagnostics(
      out.diagnostics,
      {{"/build/src/link_undefined.cpp", 5, 0, E, LE, "undefined reference to `helper(int)'", 1},
       {"/build/src/link_undefined.cpp", 5, 0, E, LE, "undefined reference to `tilingKey()'", 1}});
  EXPECT_TRUE(out.linkFailed);
}

TEST(CompilerDiagnosticParser, GnuLdArchiveMemberWithDemangledSignature) {
  const auto out = parseCompilerOutput(readFixture("gcc_link_archive_member.txt"));
  expectDiagnostics(
      out.diagnostics,
      {{"/build/src/link_archive.cpp", 8, 0, E, LE,
        "undefined reference to `tiles::extentOf(std::vector<int, std::allocator<int> > const&, "
        "double)'",
        1}});
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].notes[0],
            "in function `tiles::plan(std::vector<int, std::allocator<int> > const&, double, unsigned int)' "
            "(libtiles.a(link_archive.o))");
  EXPECT_TRUE(out.linkFailed);
}

TEST(CompilerDiagnosticParser, LldUndefinedSymbolWithReferencedBy) {
  const auto gcc = parseCompilerOutput(readFixture("gcc_lld_undefined.txt"));
  expectDiagnostics(gcc.diagnostics,
                    {{"link_undefined.cpp", 0, 0, E, LE, "undefined symbol: helper(int)", 1},
                     {"link_undefined.cpp", 0, 0, E, LE, "undefined symbol: tilingKey()", 1}});
  ASSERT_EQ(gcc.diagnostics.size(), 2u);
  EXPECT_EQ(gcc.diagnostics[0].notes[0], "referenced by link_undefined.cpp, link_undefined.o:(main)");
  EXPECT_TRUE(gcc.linkFailed);

  const auto clang = parseCompilerOutput(readFixture("clang_lld_undefined_debug.txt"));
  expectDiagnostics(clang.diagnostics,
                    {{"src/link_undefined.cpp", 5, 0, E, LE, "undefined symbol: helper(int)", 1},
                     {"src/link_undefined.cpp", 5, 0, E, LE, "undefined symbol: tilingKey()", 1}});
  EXPECT_TRUE(clang.linkFailed);
}

TEST(CompilerDiagnosticParser, LinkFailureWithoutDetailsStillReported) {
  const auto out = parseCompilerOutput("collect2: error: ld returned 1 exit status\n");
  expectDiagnostics(out.diagnostics, {{"", 0, 0, E, LE, "collect2: ld returned 1 exit status", 0}});
  EXPECT_TRUE(out.linkFailed);

  const auto missingLib = parseCompilerOutput(
      "/usr/bin/ld: cannot find -lascendcl: No such file or directory\n"
      "collect2: error: ld returned 1 exit status\n");
  expectDiagnostics(missingLib.diagnostics,
                    {{"", 0, 0, E, LE, "cannot find -lascendcl: No such file or directory", 0}});
}

TEST(CompilerDiagnosticParser, NvccFrontEndErrors) {
  const auto out = parseCompilerOutput(readFixture("nvcc_errors.txt"));
  expectDiagnostics(
      out.diagnostics,
      {{"src/nvcc_errors.cu", 6, 0, E, CE, "identifier \"undefinedFactor\" is undefined", 0},
       {"src/nvcc_errors.cu", 11, 0, E, CE, "identifier \"missingBias\" is undefined", 0},
       {"src/nvcc_errors.cu", 17, 0, E, CE,
        "argument of type \"const char *\" is incompatible with parameter of type \"int\"", 0}});
  ASSERT_EQ(out.diagnostics.size(), 3u);
  EXPECT_EQ(out.diagnostics[0].excerpt,
            "    if (i < n) out[i] = in[i] * undefinedFactor;\n"
            "                                ^");
  EXPECT_EQ(out.reportedErrors, 3);
}

TEST(CompilerDiagnosticParser, NvccWarningNumbersAndInstantiationContext) {
  const auto out = parseCompilerOutput(readFixture("nvcc_instantiation.txt"));
  expectDiagnostics(out.diagnostics,
                    {{"src/nvcc_instantiation.cu", 3, 0, W, CE,
                      "variable \"unused\" was declared but never referenced [#177-D]", 0},
                     {"src/nvcc_instantiation.cu", 13, 0, E, CE,
                      "expression must have class type but it has type \"const float\"", 1},
                     {"src/nvcc_instantiation.cu", 8, 0, E, CE,
                      "expression must have pointer-to-class type but it has type \"const float *\"", 2}});
  ASSERT_EQ(out.diagnostics.size(), 3u);
  EXPECT_EQ(out.diagnostics[2].notes,
            (std::vector<std::string>{
                "detected during instantiation of \"T load(const T *) [with T=float]\" at line 13",
                "detected during instantiation of \"void scaleKernel(T *, const T *, int) [with T=float]\" "
                "at line 18"}));
  EXPECT_EQ(out.diagnostics[1].excerpt.find("detected"), std::string::npos);
  EXPECT_EQ(out.reportedErrors, 2);
}

TEST(CompilerDiagnosticParser, NvccPreprocessorAndDriverFailures) {
  // nvcc preprocesses with the host gcc, so a missing header reads like gcc.
  const auto inc = parseCompilerOutput(readFixture("nvcc_missing_include.txt"));
  expectDiagnostics(inc.diagnostics, {{"src/nvcc_missing_include.cu", 2, 10, F, CE,
                                       "tikicpulib.h: No such file or directory", 0}});
  EXPECT_TRUE(inc.terminated);
  expectDiagnostics(parseCompilerDiagnostics(readFixture("nvcc_bad_arch.txt")),
                    {{"", 0, 0, F, CE, "nvcc: Unsupported gpu architecture 'compute_10'", 0}});
  expectDiagnostics(parseCompilerDiagnostics(readFixture("gcc_no_input.txt")),
                    {{"", 0, 0, F, CE, "g++: no input files", 0}});
}

TEST(CompilerDiagnosticParser, HandwrittenBishengFormatInsideMakeOutput) {
  const auto out = parseCompilerOutput(readFixture("handwritten_bisheng_documented_format.txt"));
  const std::string tik = "/usr/local/Ascend/ascend-toolkit/latest/compiler/tikcpp/tikcfw/";
  expectDiagnostics(
      out.diagnostics,
      {{"/home/dev/add_custom/add_custom.cpp", 42, 32, E, CE, "use of undeclared identifier 'yLocal'", 0},
       {"/home/dev/add_custom/add_custom.cpp", 57, 9, E, CE,
        "no matching function for call to 'CastIntrinsicsImpl'", 1},
       {tik + "interface/kernel_operator_vec_binary_intf.h", 64, 5, E, CE,
        "static assertion failed due to requirement 'SupportType<int8_t, half, float>()': Duplicate only "
        "support "
        "half/bfloat16/float on current device",
        3},
       {"/home/dev/add_custom/add_custom.cpp", 70, 26, E, CE, "call to 'AlignUp' is ambiguous", 2},
       {"/home/dev/add_custom/kernel_macros.h", 24, 10, F, CE, "'cstdint' file not found", 0}});
  EXPECT_EQ(out.reportedErrors, 5);
  ASSERT_EQ(out.diagnostics.size(), 5u);
  EXPECT_EQ(out.diagnostics[2].notes[0], "included from " + tik + "kernel_operator.h:22");
  EXPECT_EQ(out.diagnostics[2].notes[1], "included from /home/dev/add_custom/add_custom.cpp:10");
}

TEST(CompilerDiagnosticParser, RelocatesLibraryErrorsToTheUserLine) {
  auto gcc = parseCompilerDiagnostics(readFixture("gcc_kwb_sim_static_assert.txt"));
  // Pretend the Gather/Exp templates live in an emulator header: only src/user.cpp is the user's.
  for (auto& d : gcc) d.file = "emulator/include/kernel_operator.h";
  const int moved =
      relocateToUserCode(gcc, [](std::string_view f) { return f == "src/kwb_sim_static_assert.cpp"; });
  EXPECT_EQ(moved, 2);
  EXPECT_EQ(gcc[0].file, "src/kwb_sim_static_assert.cpp");
  EXPECT_EQ(gcc[0].line, 19);
  EXPECT_EQ(gcc[0].column, 18);
  EXPECT_EQ(gcc[0].notes.back(), "reported at emulator/include/kernel_operator.h:8:17");
  EXPECT_TRUE(gcc[0].excerpt.empty());
  EXPECT_EQ(gcc[1].line, 21);

  auto bisheng = parseCompilerDiagnostics(readFixture("handwritten_bisheng_documented_format.txt"));
  const int movedB =
      relocateToUserCode(bisheng, [](std::string_view f) { return f.find("/home/dev/add_custom/") == 0; });
  EXPECT_EQ(movedB, 1);
  EXPECT_EQ(bisheng[2].file, "/home/dev/add_custom/add_custom.cpp");
  EXPECT_EQ(bisheng[2].line, 61);
  EXPECT_EQ(bisheng[2].column, 9);
  EXPECT_EQ(bisheng[0].line, 42);  // already in user code: untouched
}

TEST(CompilerDiagnosticParser, ConcatenatedOutputsSumTheSummaries) {
  const auto out = parseCompilerOutput(readFixture("clang_undeclared.txt") + readFixture("clang_mixed.txt"));
  EXPECT_EQ(out.diagnostics.size(), 6u);
  EXPECT_EQ(out.reportedErrors, 4);
  EXPECT_EQ(out.reportedWarnings, 2);
}

TEST(CompilerDiagnosticParser, CrlfAndUnknownLinesAreHarmless) {
  std::string crlf;
  for (char c : readFixture("clang_undeclared.txt")) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  const auto a = parseCompilerDiagnostics(readFixture("clang_undeclared.txt"));
  const auto b = parseCompilerDiagnostics(crlf);
  EXPECT_EQ(a, b);
  EXPECT_TRUE(parseCompilerDiagnostics("").empty());
  EXPECT_TRUE(
      parseCompilerDiagnostics("[ 50%] Building CXX object x.o\nmake: *** [all] Error 2\n\n").empty());
  // A source line that contains "x: error: y" is excerpt text, not a second diagnostic.
  const auto d = parseCompilerDiagnostics(
      "k.cpp:2:3: error: use of undeclared identifier 'log'\n"
      "  log(\"k.cpp:1:1: error: boom\");\n"
      "  ^\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].excerpt, "  log(\"k.cpp:1:1: error: boom\");\n  ^");
}

TEST(CompilerDiagnosticParser, SourceExcerptFromSourceText) {
  const std::string src = "int main() {\n\treturn x;\n}\n";
  EXPECT_EQ(makeSourceExcerpt(src, 2, 9),
            "    2 | \treturn x;\n"
            "      | \t       ^");
  EXPECT_EQ(makeSourceExcerpt(src, 2, 0, 1),
            "    1 | int main() {\n"
            "    2 | \treturn x;\n"
            "    3 | }");
  EXPECT_EQ(makeSourceExcerpt(src, 9, 1), "");
  EXPECT_EQ(makeSourceExcerpt(src, 0, 1), "");

  auto diags = parseCompilerDiagnostics(readFixture("nvcc_errors.txt"));
  for (auto& d : diags) d.excerpt.clear();
  diags[2].file = "other.cu";
  const std::string cu = readFixture("src/nvcc_errors.cu");
  EXPECT_EQ(addSourceExcerpts(diags, "/abs/path/src/nvcc_errors.cu", cu), 2);
  EXPECT_EQ(diags[0].excerpt, "    6 |   if (i < n) out[i] = in[i] * undefinedFactor;");
  EXPECT_TRUE(diags[2].excerpt.empty());
  // An excerpt the compiler printed is kept.
  auto gcc = parseCompilerDiagnostics(readFixture("gcc_undeclared.txt"));
  const auto before = gcc[0].excerpt;
  EXPECT_EQ(addSourceExcerpts(gcc, "src/undeclared.cpp", readFixture("src/undeclared.cpp")), 0);
  EXPECT_EQ(gcc[0].excerpt, before);
}

TEST(CompilerDiagnosticParser, SameSourceFileMatchesOnPathBoundaries) {
  EXPECT_TRUE(sameSourceFile("src/k.cpp", "/home/u/p/src/k.cpp"));
  EXPECT_TRUE(sameSourceFile("./k.cpp", "k.cpp"));
  EXPECT_TRUE(sameSourceFile("/a/k.cpp", "k.cpp"));
  EXPECT_FALSE(sameSourceFile("xk.cpp", "k.cpp"));
  EXPECT_FALSE(sameSourceFile("", "k.cpp"));
  EXPECT_FALSE(sameSourceFile("a/k.cpp", "b/k.cpp"));
}

TEST(CompilerDiagnosticParser, LeadingLocation) {
  auto loc = leadingLocation("src/a.cpp:21:12: note: x");
  ASSERT_TRUE(loc);
  EXPECT_EQ(loc->file, "src/a.cpp");
  EXPECT_EQ(loc->line, 21);
  EXPECT_EQ(loc->column, 12);
  loc = leadingLocation("/b/c.cpp:5: undefined reference");
  ASSERT_TRUE(loc);
  EXPECT_EQ(loc->line, 5);
  EXPECT_EQ(loc->column, 0);
  EXPECT_FALSE(leadingLocation("In instantiation of ‘std::array<int, 3>’"));
  EXPECT_FALSE(leadingLocation("  indented.cpp:1:2: x"));
}

TEST(CompilerDiagnosticParser, SurvivesTruncatedAndGarbledInput) {
  // Every capture cut at many points, and with bytes overwritten: no crash, no hang, no exception, and
  // every diagnostic still well-formed (run under ASan/UBSan too).
  std::mt19937 rng(20240611);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(KWB_FIXTURES_DIR) + "/compiler")) {
    if (entry.path().extension() != ".txt") continue;
    ++files;
    const std::string text = readFixture(entry.path().filename().string());
    for (std::size_t cut = 0; cut <= text.size(); cut += 5) {
      for (const auto& d : parseCompilerDiagnostics(text.substr(0, cut))) {
        EXPECT_EQ(d.source, "compiler");
        EXPECT_FALSE(d.category.empty());
      }
    }
    for (int round = 0; round < 20; ++round) {
      std::string noisy = text;
      for (int k = 0; k < 8 && !noisy.empty(); ++k)
        noisy[rng() % noisy.size()] = "\n:( )0123456789 ^~|>\"#"[rng() % 20];
      EXPECT_NO_THROW(parseCompilerOutput(noisy));
    }
  }
  EXPECT_GE(files, 20);
  EXPECT_NO_THROW(
      parseCompilerOutput("99999999999999999999 errors generated.\nk.cpp:99999999999999:1: error: x\n"));
}
