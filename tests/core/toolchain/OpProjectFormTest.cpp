// SPDX-License-Identifier: MIT
// The operator-project form of a candidate (docs/candidate-contract.md): the OpDef/TilingData parsers
// on the projects under tests/fixtures/op_projects, the TilingData byte layout against CANN's rules
// (docs/emulator.md, "Operator projects"), and whole evaluations of an op_host + op_kernel pair.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/emulator/include/register/tilingdata_base.h"
#include "core/eval/Evaluator.h"
#include "core/model/Candidate.h"
#include "core/model/Task.h"
#include "core/toolchain/OpProjectForm.h"
#include "core/toolchain/OpProjectSource.h"
#include "core/toolchain/SimBackend.h"

using namespace kwb;
namespace fs = std::filesystem;

// Golden layouts: the offsets CANN's TilingDef gives (each field aligned to its type's size, arrays to
// their element's, nested structs to 8, the whole padded to 8).
namespace golden {
BEGIN_TILING_DATA_DEF(Inner)
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF(uint32_t, count);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(InnerOp, Inner)

BEGIN_TILING_DATA_DEF(Mixed)
TILING_DATA_FIELD_DEF(uint32_t, a);
TILING_DATA_FIELD_DEF(uint8_t, b);
TILING_DATA_FIELD_DEF(int64_t, c);
TILING_DATA_FIELD_DEF(uint16_t, d);
TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, arr);
TILING_DATA_FIELD_DEF(float, e);
TILING_DATA_FIELD_DEF(uint8_t, f);
TILING_DATA_FIELD_DEF_STRUCT(Inner, inner);
TILING_DATA_FIELD_DEF(uint8_t, g);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MixedOp, Mixed)

BEGIN_TILING_DATA_DEF(Tail)
TILING_DATA_FIELD_DEF(uint32_t, x);
TILING_DATA_FIELD_DEF(uint8_t, y);
END_TILING_DATA_DEF;

// Where CANN's rules and plain C layout differ: a struct of 2-byte fields still ends on 8 bytes, and
// a nested struct starts on 8 even when its own fields need only 4.
BEGIN_TILING_DATA_DEF(Halves)
TILING_DATA_FIELD_DEF(uint16_t, p);
TILING_DATA_FIELD_DEF(uint8_t, q);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(Word)
TILING_DATA_FIELD_DEF(uint32_t, w);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(Holder)
TILING_DATA_FIELD_DEF(uint32_t, first);
TILING_DATA_FIELD_DEF_STRUCT(Word, word);
TILING_DATA_FIELD_DEF_ARR(uint8_t, 3, bytes);
END_TILING_DATA_DEF;
}  // namespace golden

namespace {

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path opProjects() {
  return fs::path(KWB_FIXTURES_DIR) / "op_projects";
}

// The add project as candidate files: op_kernel/add_custom.cpp is the primary file, op_host/add_custom.cpp
// is add_custom_host.cpp, the tiling header keeps its name.
std::map<std::string, std::string> addProjectFiles() {
  const fs::path d = opProjects() / "add_custom";
  return {{"add_custom.cpp", readText(d / "op_kernel" / "add_custom.cpp")},
          {"add_custom_host.cpp", readText(d / "op_host" / "add_custom.cpp")},
          {"add_custom_tiling.h", readText(d / "op_host" / "add_custom_tiling.h")}};
}

Task addTask(std::initializer_list<const char*> cases) {
  Task t = loadTaskDir(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "add_custom");
  std::vector<VerificationCase> keep;
  for (const auto& c : t.cases)
    for (const char* n : cases)
      if (c.name == n) keep.push_back(c);
  t.cases = keep;
  return t;
}

EvalReport evalProject(const Task& task, std::map<std::string, std::string> files, const std::string& label) {
  BackendOptions o;
  o.soc = "Ascend910B1";
  o.cacheDir = fs::path(KWB_TEST_BIN_DIR) / "eval-cache";
  SimBackend backend(o);
  EvalRequest r;
  r.candidateName = "add_custom.cpp";
  r.candidateSource = files.at(r.candidateName);
  files.erase(r.candidateName);
  r.companionFiles = std::move(files);
  r.seed = 1234;
  r.workDir = fs::path(KWB_TEST_BIN_DIR) / "eval-work" / label;
  r.cacheDir = o.cacheDir;
  return evaluate(task, backend, r);
}

std::string dump(const EvalReport& r) {
  return nlohmann::json(r).dump(2).substr(0, 6000);
}

}  // namespace

TEST(TilingDataLayout, FieldsArePackedInOrderWithNaturalAlignmentAndAPaddedEnd) {
  using golden::Mixed;
  EXPECT_EQ(offsetof(golden::Inner, flag), 0u);
  EXPECT_EQ(offsetof(golden::Inner, count), 4u);
  EXPECT_EQ(sizeof(golden::Inner), 8u);
  EXPECT_EQ(offsetof(Mixed, a), 0u);
  EXPECT_EQ(offsetof(Mixed, b), 4u);
  EXPECT_EQ(offsetof(Mixed, c), 8u);  // int64 after a byte: aligned to 8
  EXPECT_EQ(offsetof(Mixed, d), 16u);
  EXPECT_EQ(offsetof(Mixed, arr), 18u);  // an array aligns to its element (2)
  EXPECT_EQ(offsetof(Mixed, e), 24u);    // 18 + 6 = 24, float aligned to 4
  EXPECT_EQ(offsetof(Mixed, f), 28u);
  EXPECT_EQ(offsetof(Mixed, inner), 32u);  // a nested struct aligns to 8
  EXPECT_EQ(offsetof(Mixed, g), 40u);
  Mixed m;
  EXPECT_EQ(m.GetDataSize(), 48u);  // 41 padded to a multiple of 8
  EXPECT_EQ(golden::Tail().GetDataSize(), 8u);
  EXPECT_EQ(golden::Halves().GetDataSize(), 8u) << "3 bytes of fields, padded to 8";
  EXPECT_EQ(golden::Word().GetDataSize(), 8u);
  EXPECT_EQ(offsetof(golden::Holder, word), 8u) << "a nested struct starts on 8";
  EXPECT_EQ(offsetof(golden::Holder, bytes), 16u) << "and takes its padded size (8)";
  EXPECT_EQ(golden::Holder().GetDataSize(), 24u);
}

TEST(TilingDataLayout, SaveToBufferWritesTheFieldsLittleEndianWithZeroPadding) {
  golden::Mixed m;
  m.set_a(0x04030201u);
  m.set_b(0xAA);
  m.set_c(-2);
  m.set_d(0x0605);
  const uint16_t arr[3] = {0x0807, 0x0a09, 0x0c0b};
  m.set_arr(arr);
  m.set_e(1.0f);
  m.set_f(0x0d);
  m.inner.set_flag(0x0e);
  m.inner.set_count(0x11223344u);
  m.set_g(0x0f);
  EXPECT_EQ(m.get_a(), 0x04030201u);
  EXPECT_EQ(m.get_arr()[2], 0x0c0b);
  uint8_t buf[64];
  std::memset(buf, 0x77, sizeof buf);
  m.SaveToBuffer(buf, sizeof buf);
  const uint8_t expected[48] = {0x01, 0x02, 0x03, 0x04, 0xAA, 0,    0,    0,     // a, b, pad
                                0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,  // c = -2
                                0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c,  // d, arr
                                0x00, 0x00, 0x80, 0x3f, 0x0d, 0,    0,    0,     // e = 1.0f, f, pad
                                0x0e, 0,    0,    0,    0x44, 0x33, 0x22, 0x11,  // inner
                                0x0f, 0,    0,    0,    0,    0,    0,    0};    // g, end padding
  for (std::size_t k = 0; k < sizeof expected; ++k) EXPECT_EQ(buf[k], expected[k]) << "byte " << k;
  EXPECT_EQ(buf[48], 0x77) << "SaveToBuffer wrote past GetDataSize()";
  uint8_t small[16];
  std::memset(small, 0x77, sizeof small);
  m.SaveToBuffer(small, sizeof small);
  EXPECT_EQ(small[0], 0x77) << "a buffer below GetDataSize() must be left alone";
}

TEST(OpProjectSource, ReadsTheOpDefOfTheAddProject) {
  std::vector<Diagnostic> problems;
  const auto files = addProjectFiles();
  const auto sig = parseOpDef(files.at("add_custom_host.cpp"), "add_custom_host.cpp", problems);
  ASSERT_TRUE(sig.has_value());
  EXPECT_TRUE(problems.empty()) << problems.front().format();
  EXPECT_EQ(sig->opType, "AddCustom");
  EXPECT_EQ(sig->opClass, "ops::AddCustom");
  ASSERT_EQ(sig->inputs.size(), 2u);
  EXPECT_EQ(sig->inputs[0].name, "x");
  EXPECT_EQ(sig->inputs[1].name, "y");
  ASSERT_EQ(sig->outputs.size(), 1u);
  EXPECT_EQ(sig->outputs[0].name, "z");
  ASSERT_EQ(sig->outputs[0].dtypes.size(), 1u);
  EXPECT_EQ(sig->outputs[0].dtypes[0], DType::Float16);
  EXPECT_EQ(sig->outputs[0].formats, std::vector<std::string>{"FORMAT_ND"});
  EXPECT_EQ(sig->tilingFunc, "TilingFunc");
  EXPECT_EQ(sig->tilingFuncLine, 8);
  EXPECT_EQ(sig->configs, std::vector<std::string>{"ascend910b"});
  const auto regs = parseTilingRegistrations(files.at("add_custom_tiling.h"), "add_custom_tiling.h");
  ASSERT_EQ(regs.size(), 1u);
  EXPECT_EQ(regs[0].opType, "AddCustom");
  EXPECT_EQ(regs[0].className, "optiling::TilingData");
  EXPECT_EQ(regs[0].line, 12);
}

TEST(OpProjectSource, BadOpDefsNameTheFileAndLine) {
  std::string host = addProjectFiles().at("add_custom_host.cpp");
  std::vector<Diagnostic> problems;
  std::string unknown = host;
  unknown.replace(unknown.find("DT_FLOAT16"), 10, "DT_COMPLEX64");
  const auto unknownSig = parseOpDef(unknown, "op_host/add_custom.cpp", problems);
  ASSERT_TRUE(unknownSig.has_value());
  EXPECT_TRUE(problems.empty()) << "an unknown dtype only matters in the combination a task tests";
  problems = opDefColumnProblems(*unknownSig, 0);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].file, "op_host/add_custom.cpp");
  EXPECT_EQ(problems[0].line, 55);
  EXPECT_NE(problems[0].message.find("unknown dtype ge::DT_COMPLEX64 for input \"x\""), std::string::npos)
      << problems[0].message;

  // A second combination the workbench does not know leaves the first one usable (public OpDefs list
  // DT_COMPLEX64 beside the float columns).
  problems.clear();
  std::string twoColumns = host;
  for (std::size_t at = twoColumns.find("DT_FLOAT16}"); at != std::string::npos;
       at = twoColumns.find("DT_FLOAT16}", at + 30))
    twoColumns.replace(at, 11, "DT_FLOAT16, ge::DT_COMPLEX64}");
  const auto twoSig = parseOpDef(twoColumns, "op_host/add_custom.cpp", problems);
  ASSERT_TRUE(twoSig.has_value());
  EXPECT_TRUE(problems.empty()) << (problems.empty() ? "" : problems[0].message);
  EXPECT_TRUE(opDefColumnProblems(*twoSig, 0).empty());
  const auto second = opDefColumnProblems(*twoSig, 1);
  ASSERT_FALSE(second.empty());
  EXPECT_NE(second[0].message.find("unknown dtype ge::DT_COMPLEX64 for input \"x\" (dtype combination 1)"),
            std::string::npos)
      << second[0].message;

  problems.clear();
  std::string noOpDef = host.substr(0, host.find("namespace ops {"));
  EXPECT_FALSE(parseOpDef(noOpDef, "op_host/add_custom.cpp", problems).has_value());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("missing OpDef"), std::string::npos) << problems[0].message;

  problems.clear();
  std::string noTiling = host;
  noTiling.replace(noTiling.find(".SetTiling(optiling::TilingFunc)"), 32, "");
  parseOpDef(noTiling, "op_host/add_custom.cpp", problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].line, 49);
  EXPECT_NE(problems[0].message.find("SetTiling"), std::string::npos) << problems[0].message;
}

TEST(OpProjectForm, AnOpHostAndOpKernelPairEvaluatesOnTheEmulator) {
  const Task t = addTask({"sample_8x2048", "tail_16397", "below_one_block_15"});
  const EvalReport r = evalProject(t, addProjectFiles(), "op_project_add");
  ASSERT_EQ(r.verdict, Verdict::Pass) << dump(r);
  ASSERT_EQ(r.runs.size(), 3u);
  EXPECT_GT(r.runs[1].tiling.blockDim, 1) << "the TilingFunc's SetBlockDim reaches the launch";
  EXPECT_EQ(r.runs[1].tiling.data.size(), 16u) << "three uint32 fields, padded to 8";
}

TEST(OpProjectForm, AFailingTilingFuncIsAnErrorAtItsDefinition) {
  const Task t = addTask({"sample_8x2048"});
  auto files = addProjectFiles();
  std::string& host = files.at("add_custom_host.cpp");
  const auto at = host.find("    return ge::GRAPH_SUCCESS;\n}\n}  // namespace optiling");
  ASSERT_NE(at, std::string::npos);
  host.replace(at, 29, "    return ge::GRAPH_FAILED; \n");
  const EvalReport r = evalProject(t, files, "op_project_tiling_fails");
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << dump(r);
  bool found = false;
  for (const auto& d : r.diagnostics)
    if (d.file == "add_custom_host.cpp" && d.line == 8 && d.message.find("TilingFunc") != std::string::npos)
      found = true;
  EXPECT_TRUE(found) << dump(r);
}

TEST(OpProjectForm, TheHostFileIsCheckedByThePolicy) {
  const Task t = addTask({"sample_8x2048"});
  auto files = addProjectFiles();
  std::string& host = files.at("add_custom_host.cpp");
  host.replace(host.find("namespace ge {"), 14,
               "namespace ge {\ninline int sneaky() { return sy\\\nstem(\"id\"); }\n");
  const EvalReport r = evalProject(t, files, "op_project_hostile_host");
  ASSERT_EQ(r.verdict, Verdict::Rejected) << dump(r);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics.front().file, "add_custom_host.cpp");
}

namespace {
// The add project with its tiling registered the way the CANN ops repositories do: no
// AICore().SetTiling, but IMPL_OP_OPTILING(AddCustom).Tiling(TilingFunc).TilingParse<CompileInfo>(...),
// and a TilingFunc that takes its core count from the CompileInfo the parse function filled.
std::map<std::string, std::string> implOpOptilingProjectFiles(const std::string& parseResult) {
  auto files = addProjectFiles();
  std::string& host = files.at("add_custom_host.cpp");
  const std::string setTiling = ".SetTiling(optiling::TilingFunc)";
  host.replace(host.find(setTiling), setTiling.size(), "");
  const std::string platformLines =
      "    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());\n"
      "    const uint64_t cores = platform.GetCoreNumAiv() > 0 ? platform.GetCoreNumAiv() : 1;\n";
  host.replace(host.find(platformLines), platformLines.size(),
               "    const auto* info = context->GetCompileInfo<AddCompileInfo>();\n"
               "    if (info == nullptr || info->coreNum == 0) return ge::GRAPH_FAILED;\n"
               "    const uint64_t cores = info->coreNum;\n");
  host.replace(host.find("static ge::graphStatus TilingFunc"), 0,
               "struct AddCompileInfo {\n"
               "    uint32_t coreNum = 0;\n"
               "};\n"
               "static ge::graphStatus ParseAdd(gert::TilingParseContext* context)\n"
               "{\n"
               "    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());\n"
               "    context->GetCompiledInfo<AddCompileInfo>()->coreNum = platform.GetCoreNumAiv();\n"
               "    return " +
                   parseResult +
                   ";\n"
                   "}\n\n");
  host.replace(host.find("#include \"register/op_def_registry.h\""), 0,
               "#include \"register/op_impl_registry.h\"\n");
  host +=
      "\nnamespace optiling {\n"
      "IMPL_OP_OPTILING(AddCustom)\n"
      "    .Tiling(TilingFunc)\n"
      "    .TilingParse<AddCompileInfo>(ParseAdd);\n"
      "}  // namespace optiling\n";
  return files;
}
}  // namespace

TEST(OpProjectForm, TheTilingMayBeRegisteredWithImplOpOptiling) {
  const auto files = implOpOptilingProjectFiles("ge::GRAPH_SUCCESS");
  std::vector<Diagnostic> problems;
  const auto sig = parseOpDef(files.at("add_custom_host.cpp"), "add_custom_host.cpp", problems);
  ASSERT_TRUE(sig.has_value());
  EXPECT_TRUE(problems.empty()) << (problems.empty() ? "" : problems[0].format());
  EXPECT_EQ(sig->tilingFunc, "TilingFunc");
  EXPECT_GT(sig->tilingFuncLine, 0);
  const Task t = addTask({"tail_16397"});
  const EvalReport r = evalProject(t, files, "op_project_impl_op_optiling");
  ASSERT_EQ(r.verdict, Verdict::Pass) << dump(r);
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_GT(r.runs[0].tiling.blockDim, 1) << "the CompileInfo's core count reached the TilingFunc";
}

TEST(OpProjectForm, AFailingTilingParseFunctionIsAnError) {
  const Task t = addTask({"tail_16397"});
  const EvalReport r =
      evalProject(t, implOpOptilingProjectFiles("ge::GRAPH_FAILED"), "op_project_tiling_parse_fails");
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << dump(r);
  bool named = false;
  for (const auto& d : r.diagnostics) named = named || d.message.find("TilingParse") != std::string::npos;
  EXPECT_TRUE(named) << dump(r);
}

TEST(OpProjectForm, ThePublicProjectsIdiomsBuildAndRun) {
  // What public msopgen projects write beside the API proper: graph/utils/type_utils.h for the dtype's
  // size, the tiling printed with std::cout, float16_t/float32_t in the kernel, and the tiling header
  // included across the project's folders ("../op_kernel/...", core/model/ProjectIncludes.h).
  const Task t = addTask({"tail_16397"});
  auto files = addProjectFiles();
  std::string& host = files.at("add_custom_host.cpp");
  const std::string flatInclude = "#include \"add_custom_tiling.h\"";
  ASSERT_EQ(host.find(flatInclude), 0u);
  host.replace(0, flatInclude.size(), "#include \"../op_kernel/add_custom_tiling.h\"");
  host.replace(host.find("#include \"register/op_def_registry.h\""), 0,
               "#include \"graph/utils/type_utils.h\"\n");
  const std::string setBlockDim = "    context->SetBlockDim(blocks);";
  ASSERT_NE(host.find(setBlockDim), std::string::npos);
  host.replace(
      host.find(setBlockDim), 0,
      "    uint32_t typeBytes = 0;\n"
      "    if (!ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeBytes) ||\n"
      "        typeBytes != 2) return ge::GRAPH_FAILED;\n"
      "    std::cout << \"blocks = \" << blocks << std::endl;\n");
  std::string& kernel = files.at("add_custom.cpp");
  for (std::size_t at = kernel.find("(__gm__ half*)"); at != std::string::npos;
       at = kernel.find("(__gm__ half*)", at))
    kernel.replace(at, 14, "(__gm__ float16_t*)");
  const EvalReport r = evalProject(t, files, "op_project_public_idioms");
  ASSERT_EQ(r.verdict, Verdict::Pass) << dump(r);
}

TEST(OpProjectForm, AttributesArraysNestedStructsAndTilingKeysReachTheKernel) {
  Task t = loadTaskDir(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "leaky_relu_custom");
  std::vector<VerificationCase> keep;
  for (const auto& c : t.cases)
    if (c.name == "aligned_8x2048" || c.name == "tail_16397") keep.push_back(c);
  ASSERT_EQ(keep.size(), 2u);
  t.cases = keep;
  const fs::path d = opProjects() / "leaky_relu_custom";
  BackendOptions o;
  o.soc = "Ascend910B1";
  o.cacheDir = fs::path(KWB_TEST_BIN_DIR) / "eval-cache";
  SimBackend backend(o);
  EvalRequest r;
  r.candidateName = "leaky_relu_custom.cpp";
  r.candidateSource = readText(d / "op_kernel" / "leaky_relu_custom.cpp");
  r.companionFiles = {{"leaky_relu_custom_host.cpp", readText(d / "op_host" / "leaky_relu_custom.cpp")},
                      {"leaky_relu_custom_tiling.h", readText(d / "op_host" / "leaky_relu_custom_tiling.h")}};
  r.seed = 99;
  r.workDir = fs::path(KWB_TEST_BIN_DIR) / "eval-work" / "op_project_leaky";
  r.cacheDir = o.cacheDir;
  const EvalReport rep = evaluate(t, backend, r);
  ASSERT_EQ(rep.verdict, Verdict::Pass) << dump(rep);
  ASSERT_EQ(rep.runs.size(), 2u);
  EXPECT_EQ(rep.runs[0].tiling.tilingKey, 1u) << "8x2048 is aligned: SetTilingKey(1)";
  EXPECT_EQ(rep.runs[1].tiling.tilingKey, 2u) << "16397 has a tail: SetTilingKey(2)";
  for (const auto& run : rep.runs) {
    // aligned@0 totalLength@4 negativeSlope@8 outerInner@12 split@24 (8-aligned), 32 bytes.
    ASSERT_EQ(run.tiling.data.size(), 32u);
    uint32_t total = 0, inner = 0, blockLength = 0;
    float slope = 0;
    std::memcpy(&total, run.tiling.data.data() + 4, 4);
    std::memcpy(&slope, run.tiling.data.data() + 8, 4);
    std::memcpy(&inner, run.tiling.data.data() + 16, 4);
    std::memcpy(&blockLength, run.tiling.data.data() + 24, 4);
    EXPECT_EQ(run.tiling.data[0], run.caseName == "aligned_8x2048" ? 1 : 0);
    EXPECT_EQ(total, run.caseName == "aligned_8x2048" ? 8u * 2048u : 16397u);
    EXPECT_EQ(inner, run.caseName == "aligned_8x2048" ? 2048u : 16397u);
    EXPECT_FLOAT_EQ(slope, run.caseName == "aligned_8x2048" ? 0.01f : 0.2f)
        << "the OpDef's attribute by index";
    EXPECT_EQ(blockLength % 128, 0u);
  }
}

TEST(OpProjectNames, ProjectPathsAndCandidateNamesMapBothWays) {
  EXPECT_EQ(candidateNameForProjectPath("op_host/add_custom.cpp"), "add_custom_host.cpp");
  EXPECT_EQ(candidateNameForProjectPath("op_host/add_custom_tiling.h"), "add_custom_tiling.h");
  EXPECT_EQ(candidateNameForProjectPath("op_kernel/add_custom.cpp"), "add_custom.cpp");
  EXPECT_EQ(candidateNameForProjectPath("kernel.cpp"), "kernel.cpp");
  EXPECT_EQ(candidateNameForProjectPath("op_host/sub/x.h"), "op_host/sub/x.h") << "left for the name check";
  EXPECT_EQ(candidateNameForProjectPath("../op_host/x.cpp"), "../op_host/x.cpp");
  EXPECT_EQ(projectPathForCandidateName("add_custom_host.cpp", "add_custom.cpp"), "op_host/add_custom.cpp");
  EXPECT_EQ(projectPathForCandidateName("add_custom.cpp", "add_custom.cpp"), "op_kernel/add_custom.cpp");
  EXPECT_EQ(projectPathForCandidateName("add_custom_tiling.h", "add_custom.cpp"),
            "op_host/add_custom_tiling.h");
  EXPECT_EQ(projectPathForCandidateName("add_custom_def_host.cpp", "add_custom.cpp"),
            "op_host/add_custom_def.cpp")
      << "every op_host source, not only the OpDef's";
}

TEST(TilingResultFile, VersionTwoCarriesTheTilingKeyAndVersionOneStillReads) {
  const fs::path dir = fs::path(KWB_TEST_BIN_DIR) / ("tiling-result-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto write = [&](const std::string& name, uint32_t version, bool withKey) {
    const uint32_t h[6] = {0x4c49544bu, version, 0u, 8u, 4u, 0u};
    const uint64_t workspace = 64, key = 7;
    const uint8_t data[4] = {1, 2, 3, 4};
    std::ofstream f(dir / name, std::ios::binary);
    f.write(reinterpret_cast<const char*>(h), sizeof h);
    f.write(reinterpret_cast<const char*>(&workspace), sizeof workspace);
    if (withKey) f.write(reinterpret_cast<const char*>(&key), sizeof key);
    f.write(reinterpret_cast<const char*>(data), sizeof data);
    return dir / name;
  };
  std::string error;
  const TilingResult v2 = readTilingResult(write("v2", 2, true), error);
  ASSERT_TRUE(v2.called) << error;
  EXPECT_EQ(v2.tilingKey, 7u);
  EXPECT_EQ(v2.workspaceSize, 64u);
  EXPECT_EQ(v2.data, (std::vector<uint8_t>{1, 2, 3, 4}));
  const TilingResult v1 = readTilingResult(write("v1", 1, false), error);
  ASSERT_TRUE(v1.called) << error;
  EXPECT_EQ(v1.tilingKey, 0u);
  EXPECT_EQ(v1.data, (std::vector<uint8_t>{1, 2, 3, 4}));
  EXPECT_FALSE(readTilingResult(write("v2-without-key", 2, false), error).called)
      << "a v2 file needs its key";
  EXPECT_FALSE(readTilingResult(write("v3", 3, true), error).called);
  fs::remove_all(dir);
}
