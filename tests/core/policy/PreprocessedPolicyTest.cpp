// SPDX-License-Identifier: MIT
// The preprocessed (authoritative) policy check: each test feeds one hostile mechanism through the
// real preprocessor in the sandbox and expects a policy-violation naming it; the legit candidates
// (every task's expert, the fixtures meant to compile) must pass untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

#include "core/base/InstallLayout.h"
#include "core/policy/CandidatePreprocess.h"
#include "core/policy/PreprocessedPolicy.h"
#include "core/policy/PreprocessedTokens.h"

using namespace kwb;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Checked {
  PreprocessResult pre;
  std::vector<Diagnostic> policy;
  std::string all() const {  // every message, excerpt and note, for "names X" / "never quotes Y"
    std::string s;
    for (const auto* v : {&pre.diagnostics, &policy})
      for (const auto& d : *v) {
        s += d.message + "\n" + d.excerpt + "\n";
        for (const auto& n : d.notes) s += n + "\n";
      }
    return s;
  }
  bool flags(const std::string& name) const {
    for (const auto& d : policy)
      if (d.category == "policy-violation" &&
          (d.api.value_or("") == name || d.message.find("'" + name + "'") != std::string::npos))
        return true;
    return false;
  }
};

Checked run(const std::string& source, const std::string& kernel = "add_custom",
            const std::map<std::string, std::string>& companions = {}, bool hostCode = false,
            const std::string& ownEntryName = "") {
  static int counter = 0;
  PreprocessSpec spec;
  spec.sourceText = source;
  spec.companions = companions;
  const std::string tasksInclude = std::string(KWB_SOURCE_DIR) + "/resources/tasks/include";
  spec.flags = simPreprocessFlags("Ascend910B1", "c++17", true, {tasksInclude},
                                  {"KWB_COMPILE_KERNEL=1", "KWB_COMPILE_TILING=1"});
  spec.scratchDir = fs::temp_directory_path() /
                    ("kwb-pp-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(spec.scratchDir);
  Checked c;
  c.pre = preprocessCandidate(spec);
  PolicyOptions o;
  o.kernelName = kernel;
  o.hostCode = hostCode;
  o.ownEntryName = ownEntryName;
  o.apiHeaderDirs = {currentInstallLayout().emulatorIncludeDir.string(), tasksInclude};
  if (!c.pre.text.empty())
    c.policy =
        checkPreprocessedPolicy(c.pre.text, c.pre.candidatePath, "kernel.cpp", o, c.pre.companionPaths);
  fs::remove_all(spec.scratchDir);
  return c;
}

// A legit skeleton; `body` goes into the tiling function, `top` at file scope after the includes.
std::string candidate(const std::string& top, const std::string& body = "") {
  return "#include \"kwb_tiling.h\"\n#include \"kernel_operator.h\"\n#include <cstdint>\nusing namespace "
         "AscendC;\n" +
         top +
         "\nextern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, "
         "GM_ADDR t) {}\n"
         "extern \"C\" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {\n" +
         body + "\n  kwb_set_block_dim(out, 1);\n  return KWB_TILING_OK;\n}\n";
}

#define EXPECT_FLAGS(c, name) \
  EXPECT_TRUE((c).flags(name)) << "expected '" << (name) << "' refused; got:\n" << (c).all()

}  // namespace

TEST(PolicyPreprocessed, CleanSkeletonPasses) {
  auto c = run(candidate("constexpr int32_t kTile = 64;",
                         "uint32_t n = static_cast<uint32_t>(in->inputs[0].elements);\n(void)n;"));
  EXPECT_TRUE(c.pre.ok) << c.all();
  EXPECT_TRUE(c.policy.empty()) << c.all();
}

// A multi-file candidate (docs/candidate-contract.md, "Several files"): its own header is included by
// name and judged like the primary file, so it is no way around the allow-list.
const char* kTilingHeader =
    "#pragma once\n#include <cstdint>\nstruct AddTiling { uint32_t total; uint32_t tile; };\nconstexpr "
    "int32_t "
    "kTile = 64;\n";

TEST(PolicyPreprocessed, AnIncludedCandidateHeaderPasses) {
  auto c = run(candidate("#include \"add_custom_tiling.h\"\nconstexpr int32_t kTwice = kTile * 2;"),
               "add_custom", {{"add_custom_tiling.h", kTilingHeader}});
  EXPECT_TRUE(c.pre.ok) << c.all();
  EXPECT_TRUE(c.policy.empty()) << c.all();
  ASSERT_EQ(c.pre.companionPaths.count("add_custom_tiling.h"), 1u);
}

TEST(PolicyPreprocessed, AForbiddenConstructInAnIncludedCandidateHeaderIsRejected) {
  const std::string header = std::string(kTilingHeader) +
                             "inline int sneaky() { return sy\\\nstem(\"id\"); }\n"
                             "inline void spin() { __asm__ volatile(\"nop\"); }\n";
  auto c =
      run(candidate("#include \"add_custom_tiling.h\"\n"), "add_custom", {{"add_custom_tiling.h", header}});
  EXPECT_FLAGS(c, "system");
  EXPECT_FLAGS(c, "__asm__");
  for (const auto& d : c.policy) {
    EXPECT_EQ(d.file, "add_custom_tiling.h") << d.format();
    EXPECT_GE(d.line, 5) << d.format();
  }
  // Without knowing the header is the candidate's, its text counts as a header's and goes unjudged:
  // what the companion paths close.
  PolicyOptions o;
  o.kernelName = "add_custom";
  EXPECT_FALSE(c.pre.text.empty());
  const auto blind = checkPreprocessedPolicy(c.pre.text, c.pre.candidatePath, "kernel.cpp", o);
  EXPECT_TRUE(std::none_of(blind.begin(), blind.end(),
                           [](const Diagnostic& d) { return d.api.value_or("") == "__asm__"; }));
}

TEST(PolicyPreprocessed, ACandidateHeaderMayNotIncludeAHostHeader) {
  const std::string header = "#pragma once\n#include \"/etc/passwd\"\n";
  auto c =
      run(candidate("#include \"add_custom_tiling.h\"\n"), "add_custom", {{"add_custom_tiling.h", header}});
  ASSERT_FALSE(c.policy.empty()) << c.all();
  EXPECT_EQ(c.policy.front().file, "add_custom_tiling.h");
  EXPECT_EQ(c.policy.front().line, 2);
}

// Host code (an operator project's op_host source, PolicyOptions::hostCode) may use the standard
// containers and numeric algorithms; everything else stays as for a kernel.
TEST(PolicyPreprocessed, HostCodeMayUseTheStandardContainers) {
  const std::string top =
      "#include <vector>\n#include <numeric>\n"
      "inline int32_t sumOf(const std::vector<int32_t>& v) { return std::accumulate(v.begin(), v.end(), 0); "
      "}";
  auto host = run(candidate(top, "(void)sumOf(std::vector<int32_t>{1, 2});"), "add_custom", {}, true);
  EXPECT_TRUE(host.pre.ok) << host.all();
  EXPECT_TRUE(host.policy.empty()) << host.all();
  auto kernel = run(candidate(top, "(void)sumOf(std::vector<int32_t>{1, 2});"));
  EXPECT_FLAGS(kernel, "vector");
  EXPECT_FLAGS(kernel, "numeric");
  auto stream = run(candidate("#include <fstream>\ninline void f() { std::ofstream o(\"x\"); }"),
                    "add_custom", {}, true);
  EXPECT_FLAGS(stream, "fstream");
}

// The Matmul high-level API and its host tiling (docs/emulator.md, "Matmul API"): the headers, the
// kernel-side names and the host tiler's names are the API's, so a candidate may use them.
TEST(PolicyPreprocessed, TheMatmulApiAndItsHostTilingPass) {
  const std::string top =
      "#include \"lib/matmul_intf.h\"\n#include \"tiling/tiling_api.h\"\nusing namespace matmul;\n"
      "using MmType = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,\n"
      "    MatmulType<TPosition::GM, CubeFormat::ND, half, true>, MatmulType<TPosition::GM, CubeFormat::ND, "
      "float>, MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG_MDL>;\n"
      "__aicore__ inline void RunMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling* tiling) {\n"
      "  GlobalTensor<half> aGm, bGm;\n  GlobalTensor<float> cGm;\n"
      "  aGm.SetGlobalBuffer((__gm__ half*)a, tiling->M * tiling->Ka);\n"
      "  bGm.SetGlobalBuffer((__gm__ half*)b, tiling->Kb * tiling->N);\n"
      "  cGm.SetGlobalBuffer((__gm__ float*)c, tiling->M * tiling->N);\n"
      "  TPipe pipe;\n  MmType mm;\n  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, tiling);\n"
      "  mm.SetTensorA(aGm);\n  mm.SetTensorB(bGm, true);\n"
      "  mm.SetTail(tiling->singleCoreM, tiling->singleCoreN, tiling->singleCoreK);\n"
      "  while (mm.Iterate()) mm.GetTensorC(cGm);\n  mm.End();\n}\n";
  const std::string body =
      "matmul_tiling::MultiCoreMatmulTiling tiler;\ntiler.SetDim(2);\n"
      "tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, "
      "matmul_tiling::DataType::DT_FLOAT16);\n"
      "tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, "
      "matmul_tiling::DataType::DT_FLOAT16, true);\n"
      "tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, "
      "matmul_tiling::DataType::DT_FLOAT);\n"
      "tiler.SetShape(64, 64, 64);\ntiler.SetOrgShape(64, 64, 64);\ntiler.SetBias(false);\n"
      "tiler.SetBufferSpace(-1, -1, -1);\noptiling::TCubeTiling t;\nif (tiler.GetTiling(t) != 0) return 1;\n"
      "(void)in;";
  auto c = run(candidate(top, body));
  EXPECT_TRUE(c.pre.ok) << c.all();
  EXPECT_TRUE(c.policy.empty()) << c.all();
}

TEST(PolicyPreprocessed, LineSpliceInsideIdentifier) {
  auto c = run(candidate("", "sy\\\nstem(\"id\");"));
  EXPECT_FLAGS(c, "system");
}

TEST(PolicyPreprocessed, DigraphInclude) {
  auto c = run("%:include <fstream>\n" + candidate(""));
  EXPECT_FLAGS(c, "fstream");
}

TEST(PolicyPreprocessed, DigraphTokenPaste) {
  auto c = run(candidate("#define CAT(a, b) a %:%: b", "CAT(sys, tem)(\"id\");"));
  EXPECT_FLAGS(c, "##");
  EXPECT_FLAGS(c, "system");
}

TEST(PolicyPreprocessed, DefineAliasOfBannedCall) {
  auto c = run(candidate("#define OPEN_IT fopen", "OPEN_IT(\"/tmp/x\", \"w\");"));
  EXPECT_FLAGS(c, "fopen");
}

TEST(PolicyPreprocessed, NamespaceAliasToEmulatorInternals) {
  auto c = run(candidate("namespace k = kwb_sim;"));
  EXPECT_FLAGS(c, "kwb_sim");
}

TEST(PolicyPreprocessed, BuiltinFork) {
  auto c = run(candidate("", "__builtin_fork();"));
  EXPECT_FLAGS(c, "__builtin_fork");
}

TEST(PolicyPreprocessed, Fopen64) {
  auto c = run(candidate("", "fopen64(\"/tmp/x\", \"w\");"));
  EXPECT_FLAGS(c, "fopen64");
}

TEST(PolicyPreprocessed, Dprintf) {
  auto c = run(candidate("", "dprintf(2, \"hi\");"));
  EXPECT_FLAGS(c, "dprintf");
}

TEST(PolicyPreprocessed, ExternCRedeclarationOfWrite) {
  auto c = run(candidate("extern \"C\" long write(int, const void*, unsigned long);", "write(1, \"x\", 1);"));
  EXPECT_FLAGS(c, "extern");
}

TEST(PolicyPreprocessed, FunctionPointerToSystem) {
  auto c = run(candidate("", "auto p = &system;\n(void)p;"));
  EXPECT_FLAGS(c, "system");
}

// Operators name their own data after C library functions (IsClose's `atol` tolerance): a variable,
// member or parameter the candidate declares is its own, and so is every later unqualified use in its
// scope (core/policy/OwnDeclarations.h). A call of the library's function stays refused.
TEST(PolicyPreprocessed, AVariableMemberOrParameterNamedLikeALibraryFunctionIsTheCandidates) {
  const std::string top =
      "#include <array>\n#include \"register/tilingdata_base.h\"\n"
      "BEGIN_TILING_DATA_DEF(IsCloseTiling)\nTILING_DATA_FIELD_DEF(float, atol);\nEND_TILING_DATA_DEF;\n"
      "struct Tolerance { float atol = 0; float Scaled() const { return atol * 2; } };\n"
      "struct Pair { float rtol, atol; float Sum() const { return rtol + atol; } };\n"
      "inline float Twice(float atol) { return atol + atol; }\n";
  auto c = run(candidate(top,
                         "IsCloseTiling t;\nt.set_atol(0.5f);\nfloat atol = t.atol;\n"
                         "for (int i = 0; i < 2; ++i) { atol = Twice(atol); }\n(void)atol;\n"
                         // A template-id type (LocalTensor<float> gamma in the norm experts).
                         "{ std::array<float, 2> atol{}; (void)atol; }"));
  EXPECT_TRUE(c.pre.ok) << c.all();
  EXPECT_TRUE(c.policy.empty()) << c.all();
}

TEST(PolicyPreprocessed, TheLibraryFunctionBehindAnOwnNameStaysRefused) {
  // A call where no own declaration is in scope.
  EXPECT_FLAGS(run(candidate("", "{ float atol = 1; (void)atol; }\nlong v = atol(\"7\");\n(void)v;")),
               "atol");
  // Its address, after the own variable's block has closed.
  EXPECT_FLAGS(run(candidate("", "{ float atol = 1; (void)atol; }\nauto p = atol;\n(void)p;")), "atol");
  // Redeclaring the function in a nested block, plainly or with a parenthesized declarator.
  EXPECT_FLAGS(run(candidate("", "float atol = 1;\n{ long atol(const char*); }\n(void)atol;")), "atol");
  EXPECT_FLAGS(run(candidate("", "float atol = 1;\n{ long (atol)(const char*); (void)(atol)(\"7\"); }")),
               "atol");
  // A namespace-scope variable: its symbol is not mangled.
  EXPECT_FLAGS(run(candidate("float atol = 1;", "(void)atol;")), "atol");
  // A qualified name is the library's.
  EXPECT_FLAGS(run(candidate("", "float atol = 1;\n(void)atol;\nlong v = std::atol(\"7\");\n(void)v;")),
               "atol");
  // The comma operator is no declarator list.
  EXPECT_FLAGS(run(candidate("", "int a = 1, b = 2;\na * b, atol;\nauto q = atol;\n(void)q;")), "atol");
  // A comparison is no declaration: `p > atol;` leaves atol the library's.
  EXPECT_FLAGS(run(candidate("", "long (*p)(const char*) = nullptr;\np > atol;\nauto q = atol;\n(void)q;")),
               "atol");
}

// An operator named like a std name (Less, LessEqual): its entry `less` is the candidate's own required
// declaration; the same name where it is not the task's entry stays refused.
TEST(PolicyPreprocessed, TheKernelEntryMayBeNamedLikeAStdName) {
  std::string src = candidate("");
  src.replace(src.find("void add_custom("), 16, "void less(");
  auto c = run(src, "less");
  EXPECT_TRUE(c.pre.ok) << c.all();
  EXPECT_TRUE(c.policy.empty()) << c.all();
  EXPECT_FLAGS(run(src, "add_custom"), "less");
}

// An operator project's kernel unit renames its entry and skips the entry checks (no kernelName), yet
// the entry is still the candidate's own name (PolicyOptions::ownEntryName); nothing else is.
TEST(PolicyPreprocessed, AnOperatorProjectsRenamedEntryStillOwnsAStdName) {
  std::string src = candidate("");
  src.replace(src.find("void add_custom("), 16, "void less(");
  auto c = run(src, "", {}, false, "less");
  EXPECT_TRUE(c.pre.ok) << c.all();
  EXPECT_TRUE(c.policy.empty()) << c.all();
  EXPECT_FLAGS(run(src, "", {}, false, ""), "less");
  EXPECT_FLAGS(run(src, "", {}, false, "greater"), "less");
}

TEST(PolicyPreprocessed, Environ) {
  auto c = run(candidate("extern char** environ;", "char** e = environ;\n(void)e;"));
  EXPECT_FLAGS(c, "extern");
  EXPECT_FLAGS(c, "environ");
}

TEST(PolicyPreprocessed, EmulatorRuntimeInternals) {
  auto c = run(candidate("", "(void)&kwb_sim::rt::R;"));
  EXPECT_FLAGS(c, "kwb_sim");
}

TEST(PolicyPreprocessed, AttributesAndAsm) {
  auto c = run(candidate(
      "__attribute__((constructor)) static void early() {}\n[[gnu::constructor]] static void early2() {}\n"
      "static void f() { asm(\"nop\"); }"));
  EXPECT_FLAGS(c, "__attribute__");
  EXPECT_FLAGS(c, "[[");
  EXPECT_FLAGS(c, "asm");
}

TEST(PolicyPreprocessed, LineDirectiveCannotDisguiseCode) {
  auto c = run(candidate("#line 1 \"/usr/include/stdio.h\"\nstatic int hidden = system(\"id\");"));
  EXPECT_FLAGS(c, "#line");
}

TEST(PolicyPreprocessed, PragmaOtherThanLoopHints) {
  auto c = run(candidate("_Pragma(\"GCC optimize(\\\"O0\\\")\")\n#pragma GCC unroll 4"));
  EXPECT_FLAGS(c, "#pragma");
  EXPECT_EQ(c.policy.size(), 1u) << c.all();
}

TEST(PolicyPreprocessed, HostFileIsNeverQuoted) {
  auto c = run("%:include \"/etc/passwd\"\n" + candidate(""));
  EXPECT_FLAGS(c, "passwd");
  const std::string all = c.all();
  std::istringstream passwd(readAll("/etc/passwd"));
  std::string line;
  while (std::getline(passwd, line)) {
    if (line.size() > 3) {
      EXPECT_EQ(all.find(line), std::string::npos) << "quoted /etc/passwd: " << line;
    }
  }
}

TEST(PolicyPreprocessed, DevZeroEndsAtTheLimits) {
  const auto t0 = std::chrono::steady_clock::now();
  auto c = run("#include \"/dev/zero\"\n" + candidate(""));
  const auto s =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 65);
  EXPECT_FALSE(c.pre.ok);
  EXPECT_FALSE(c.pre.diagnostics.empty() && c.policy.empty()) << "no diagnostic for #include \"/dev/zero\"";
}

TEST(PolicyPreprocessed, EveryExpertCandidatePasses) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(std::string(KWB_SOURCE_DIR) + "/resources/tasks")) {
    const fs::path f = e.path() / "expert_candidate.cpp";
    if (!fs::exists(f)) continue;
    ++n;
    auto c = run(readAll(f), e.path().filename().string());
    EXPECT_TRUE(c.pre.ok) << f << "\n" << c.all();
    EXPECT_TRUE(c.policy.empty()) << f << "\n" << c.all();
  }
  EXPECT_GE(n, 20);
}

TEST(PolicyPreprocessed, FixturesMeantToCompilePass) {
  for (const char* name :
       {"modifies_inputs", "one_block_wrong", "unaligned_datacopy", "wrong_tail", "zeros", "hostile_spin"}) {
    auto c = run(readAll(std::string(KWB_FIXTURES_DIR) + "/candidates/" + name + ".cpp"));
    EXPECT_TRUE(c.policy.empty()) << name << "\n" << c.all();
  }
  // No allowed header declares fork, so the preprocessed check sees a name of the candidate's own
  // (which cannot compile); the raw check still names it for the agent.
  PolicyOptions o;
  o.kernelName = "add_custom";
  const auto raw = checkCandidatePolicy(
      readAll(std::string(KWB_FIXTURES_DIR) + "/candidates/hostile_fork.cpp"), "kernel.cpp", o);
  EXPECT_TRUE(
      std::any_of(raw.begin(), raw.end(), [](const Diagnostic& d) { return d.api.value_or("") == "fork"; }));
  auto breach = run(readAll(std::string(KWB_FIXTURES_DIR) + "/candidates/policy_breach.cpp"));
  EXPECT_FLAGS(breach, "fstream");
}

// Pure: linemarkers decide provenance; a name a header declares is refused only in the candidate.
TEST(PolicyPreprocessedPure, GoldenOutputProvenance) {
  const std::string text =
      "# 0 \"/s/k.cpp\"\n# 0 \"<built-in>\"\n# 0 \"<command-line>\"\n# 1 \"/s/k.cpp\"\n"
      "# 1 \"/usr/include/unistd.h\" 1 3 4\nextern long write (int __fd, const void *__buf, unsigned long "
      "__n);\n"
      "# 2 \"/s/k.cpp\" 2\n\nint mine = 1;\nvoid f() <% write(1, 0, 0); %>\n";
  const PreprocessedUnit u = parsePreprocessed(text);
  ASSERT_EQ(u.includes.size(), 1u);
  EXPECT_EQ(u.includes[0].lineInParent, 1);
  EXPECT_TRUE(u.includes[0].systemHeader);
  PolicyOptions o;
  o.requireTiling = false;
  auto d = checkPreprocessedPolicy(text, "/s/k.cpp", "k.cpp", o);
  ASSERT_EQ(d.size(), 2u);  // unistd.h is not an allowed include; write is not allowed
  EXPECT_EQ(d[0].line, 1);
  EXPECT_EQ(d[1].line, 4);
  EXPECT_EQ(d[1].api.value_or(""), "write");
  EXPECT_EQ(d[1].file, "k.cpp");
}

TEST(PolicyPreprocessedPure, DigraphsNormalised) {
  auto t = tokenizeCode("a<:0:> <% %> %:%: <::b");
  ASSERT_GE(t.size(), 9u);
  EXPECT_EQ(t[1].text, "[");
  EXPECT_EQ(t[3].text, "]");
  EXPECT_EQ(t[4].text, "{");
  EXPECT_EQ(t[6].text, "##");
  EXPECT_EQ(t[7].text, "<");
  EXPECT_EQ(t[8].text, "::");
}
