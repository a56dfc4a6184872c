// SPDX-License-Identifier: MIT
// `kwb task import` of an operator project (core/agent/OpProjectImport.h): the task and candidate it
// makes from tests/fixtures/op_projects/add_custom, the round trip import -> evaluate -> write back
// into the project -> import again, and bad projects named by file and line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "core/agent/ImportedTask.h"
#include "core/agent/OpProjectExporter.h"
#include "core/agent/OpProjectImport.h"
#include "core/base/TextFile.h"
#include "core/eval/Evaluator.h"
#include "core/toolchain/OpProjectSource.h"
#include "core/toolchain/SimBackend.h"

using namespace kwb;
namespace fs = std::filesystem;

namespace {

fs::path fixtures() {
  return fs::path(KWB_FIXTURES_DIR) / "op_projects";
}

OperatorProjectImportOptions addOptions() {
  OperatorProjectImportOptions o;
  o.casesFile = fixtures() / "add_custom.cases.json";
  o.referenceFile = fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "add_custom" / "reference.cpp";
  return o;
}

fs::path freshDir(const std::string& name) {
  const fs::path d = fs::path(KWB_TEST_BIN_DIR) / (name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(OpProjectImport, AnAddProjectBecomesATaskAndAnImportedCandidate) {
  const OperatorProjectImport r = importOperatorProject(fixtures() / "add_custom", addOptions());
  ASSERT_TRUE(r.ok()) << r.errors.front().format();
  EXPECT_EQ(r.task.name, "add_custom");
  ASSERT_EQ(r.task.inputs.size(), 2u);
  EXPECT_EQ(r.task.inputs[0].name, "x");
  EXPECT_EQ(r.task.inputs[0].dtype, DType::Float16);
  ASSERT_EQ(r.task.outputs.size(), 1u);
  EXPECT_EQ(r.task.cases.size(), 2u);
  EXPECT_EQ(r.candidate.origin, Origin::Imported);
  std::vector<std::string> names;
  for (const auto& [n, text] : r.candidate.files) names.push_back(n);
  EXPECT_EQ(names,
            (std::vector<std::string>{"add_custom.cpp", "add_custom_host.cpp", "add_custom_tiling.h"}));
  EXPECT_FALSE(r.referenceSource.empty());
}

TEST(OpProjectImport, ImportEvaluateExportImportGivesTheSameTaskAndSources) {
  const OperatorProjectImport first = importOperatorProject(fixtures() / "add_custom", addOptions());
  ASSERT_TRUE(first.ok()) << first.errors.front().format();
  // Evaluate the imported candidate as it is.
  const fs::path taskDir = freshDir("imported-task");
  {
    std::ofstream(taskDir / "task.json") << nlohmann::json(first.task).dump(2);
    std::ofstream(taskDir / "reference.cpp") << first.referenceSource;
  }
  const Task task = loadTaskDir(taskDir);
  BackendOptions o;
  o.soc = "Ascend910B1";
  o.cacheDir = fs::path(KWB_TEST_BIN_DIR) / "eval-cache";
  SimBackend backend(o);
  EvalRequest req;
  const auto [primary, source] = primaryCandidateFile(first.candidate);
  req.candidateName = primary;
  req.candidateSource = source;
  for (const auto& [n, text] : first.candidate.files)
    if (n != primary) req.companionFiles[n] = text;
  req.seed = 7;
  req.workDir = fs::path(KWB_TEST_BIN_DIR) / "eval-work" / "imported_add";
  req.cacheDir = o.cacheDir;
  const EvalReport rep = evaluate(task, backend, req);
  ASSERT_EQ(rep.verdict, Verdict::Pass) << nlohmann::json(rep).dump(2).substr(0, 4000);
  // Exported as a msopgen project, then in again.
  const fs::path exported = freshDir("msopgen-export");
  fs::remove_all(exported);
  Iteration it;
  it.id = 1;
  it.origin = Origin::Imported;
  it.verdict = Verdict::Pass;
  it.candidate = first.candidate;
  exportOperatorProject(task, it, exported);
  for (const char* f : {"op_host/add_custom.cpp", "op_host/add_custom_tiling.h", "op_kernel/add_custom.cpp",
                        "add_custom.json", "build.sh", "README.md"})
    EXPECT_TRUE(fs::exists(exported / f)) << f;
  const OperatorProjectImport again = importOperatorProject(exported, addOptions());
  ASSERT_TRUE(again.ok()) << again.errors.front().format();
  EXPECT_EQ(nlohmann::json(again.task).dump(2), nlohmann::json(first.task).dump(2));
  EXPECT_EQ(again.candidate, first.candidate);
  fs::remove_all(exported);
  // Back into a copy of the project, then in again.
  const fs::path copy = freshDir("exported-project");
  fs::copy(fixtures() / "add_custom", copy, fs::copy_options::recursive);
  const auto written = writeCandidateIntoOperatorProject(first.candidate, copy);
  ASSERT_TRUE(written.empty()) << written.front().format();
  const OperatorProjectImport second = importOperatorProject(copy, addOptions());
  ASSERT_TRUE(second.ok()) << second.errors.front().format();
  EXPECT_EQ(nlohmann::json(second.task).dump(2), nlohmann::json(first.task).dump(2));
  EXPECT_EQ(second.candidate, first.candidate);
  EXPECT_EQ(second.projectFiles, first.projectFiles);
  fs::remove_all(copy);
  fs::remove_all(taskDir);
}

TEST(OpProjectImport, BadProjectsAreNamedByFileAndLine) {
  const fs::path bad = freshDir("bad-project");
  fs::copy(fixtures() / "add_custom", bad, fs::copy_options::recursive);
  // An unknown dtype in the OpDef.
  {
    std::ifstream in(bad / "op_host" / "add_custom.cpp");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("DT_FLOAT16"), 10, "DT_COMPLEX64");
    std::ofstream(bad / "op_host" / "add_custom.cpp") << text;
  }
  OperatorProjectImport r = importOperatorProject(bad, addOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors.front().file, "op_host/add_custom.cpp");
  EXPECT_EQ(r.errors.front().line, 55);
  // No OpDef at all.
  std::ofstream(bad / "op_host" / "add_custom.cpp") << "#include \"add_custom_tiling.h\"\n";
  r = importOperatorProject(bad, addOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors.front().file, "op_host");
  EXPECT_NE(r.errors.front().message.find("missing OpDef"), std::string::npos) << r.errors.front().message;
  // No cases.
  OperatorProjectImportOptions noCases = addOptions();
  noCases.casesFile.clear();
  r = importOperatorProject(fixtures() / "add_custom", noCases);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors.front().file, "--cases");
  fs::remove_all(bad);
}

TEST(OpProjectExport, AKwbTilingCandidateGetsAnOpHostWithTheTasksSignature) {
  const Task task = loadTaskDir(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "leaky_relu_custom");
  Iteration it;
  it.id = 3;
  it.verdict = Verdict::Pass;
  std::ifstream in(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "leaky_relu_custom" /
                   "expert_candidate.cpp");
  it.candidate.files["kernel.cpp"] =
      std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const fs::path dir = freshDir("msopgen-export-kwb");
  fs::remove_all(dir);
  exportOperatorProject(task, it, dir);
  EXPECT_TRUE(fs::exists(dir / "op_kernel" / "leaky_relu_custom.cpp"));
  EXPECT_TRUE(fs::exists(dir / "op_kernel" / "kwb_tiling.h"));
  EXPECT_TRUE(fs::exists(dir / "op_host" / "kwb_tiling.h"));
  std::ifstream h(dir / "op_host" / "leaky_relu_custom.cpp");
  const std::string host((std::istreambuf_iterator<char>(h)), std::istreambuf_iterator<char>());
  EXPECT_NE(host.find("kwb_tiling(&in, &out)"), std::string::npos);
  // The generated OpDef reads back as the task's signature.
  std::vector<Diagnostic> problems;
  const auto sig = parseOpDef(host, "op_host/leaky_relu_custom.cpp", problems);
  ASSERT_TRUE(sig.has_value());
  EXPECT_TRUE(problems.empty()) << problems.front().format();
  EXPECT_EQ(sig->opType, "LeakyReluCustom");
  ASSERT_EQ(sig->inputs.size(), 1u);
  EXPECT_EQ(sig->inputs[0].name, "x");
  EXPECT_EQ(sig->inputs[0].dtypes, std::vector<DType>{DType::Float16});
  ASSERT_EQ(sig->attrs.size(), 1u);
  EXPECT_EQ(sig->attrs[0].name, "negative_slope");
  EXPECT_EQ(sig->attrs[0].type, "float");
  EXPECT_DOUBLE_EQ(sig->attrs[0].value.get<double>(), 0.01);
  EXPECT_EQ(sig->configs, std::vector<std::string>{"ascend910b"});
  const nlohmann::json desc = nlohmann::json::parse(std::ifstream(dir / "leaky_relu_custom.json"));
  EXPECT_EQ(desc[0]["op"], "LeakyReluCustom");
  EXPECT_EQ(desc[0]["input_desc"][0]["type"][0], "float16");
  EXPECT_EQ(desc[0]["attr"][0]["type"], "float");
  fs::remove_all(dir);
}

// A kwb_tiling candidate exported as a msopgen project (its op_host calls kwb_tiling through
// kwb_tiling.h) imports again as the same task, and the imported candidate still passes.
TEST(OpProjectExport, AKwbTilingExportImportsAgainAndPasses) {
  const fs::path taskSource = fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "leaky_relu_custom";
  const Task task = loadTaskDir(taskSource);
  Iteration it;
  it.id = 2;
  it.verdict = Verdict::Pass;
  std::ifstream in(taskSource / "expert_candidate.cpp");
  it.candidate.files["kernel.cpp"] =
      std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const fs::path dir = freshDir("msopgen-export-kwb-again");
  fs::remove_all(dir);
  exportOperatorProject(task, it, dir);
  const fs::path work = freshDir("kwb-export-reimport");
  std::ofstream(work / "cases.json") << nlohmann::json(task.cases).dump(2);
  OperatorProjectImportOptions o;
  o.casesFile = work / "cases.json";
  o.referenceFile = taskSource / "reference.cpp";
  const OperatorProjectImport again = importOperatorProject(dir, o);
  ASSERT_TRUE(again.ok()) << again.errors.front().format();
  EXPECT_EQ(again.task.name, task.name);
  ASSERT_EQ(again.task.inputs.size(), task.inputs.size());
  EXPECT_EQ(again.task.inputs[0].dtype, task.inputs[0].dtype);
  ASSERT_EQ(again.task.attrs.size(), 1u);
  EXPECT_EQ(again.task.attrs[0].name, "negative_slope");
  // The generated op_host bridge stays behind: the candidate is the exported kernel, unchanged.
  ASSERT_EQ(again.candidate.files.size(), 1u);
  EXPECT_EQ(again.candidate.files.begin()->second, it.candidate.files.at("kernel.cpp"));
  const fs::path taskDir = work / "task";
  ASSERT_EQ(writeImportedTask(again, taskDir), "");
  const Task imported = loadTaskDir(taskDir);
  BackendOptions bo;
  bo.soc = "Ascend910B1";
  bo.cacheDir = fs::path(KWB_TEST_BIN_DIR) / "eval-cache";
  SimBackend backend(bo);
  EvalRequest req;
  const auto [primary, source] = primaryCandidateFile(again.candidate);
  req.candidateName = primary;
  req.candidateSource = source;
  for (const auto& [n, text] : again.candidate.files)
    if (n != primary) req.companionFiles[n] = text;
  req.seed = 3;
  req.workDir = fs::path(KWB_TEST_BIN_DIR) / "eval-work" / "kwb_export_reimport";
  req.cacheDir = bo.cacheDir;
  const EvalReport rep = evaluate(imported, backend, req);
  EXPECT_EQ(rep.verdict, Verdict::Pass) << nlohmann::json(rep).dump(2).substr(0, 4000);
  fs::remove_all(dir);
  fs::remove_all(work);
}

// A project configured only for another SoC family imports with a warning at its OpDef naming both.
TEST(OpProjectImport, AProjectForAnotherSocFamilyIsNamedInAWarning) {
  const OperatorProjectImport same = importOperatorProject(fixtures() / "add_custom", addOptions());
  ASSERT_TRUE(same.ok()) << same.errors.front().format();
  EXPECT_TRUE(same.warnings.empty()) << same.warnings.front().format();
  const fs::path copy = freshDir("op-project-310b");
  fs::copy(fixtures() / "add_custom", copy, fs::copy_options::recursive);
  const fs::path host = copy / "op_host" / "add_custom.cpp";
  std::string text;
  {
    std::ifstream in(host);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const auto at = text.find("\"ascend910b\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 12, "\"ascend310b\"");
  std::ofstream(host, std::ios::trunc) << text;
  const OperatorProjectImport other = importOperatorProject(copy, addOptions());
  ASSERT_TRUE(other.ok()) << other.errors.front().format();
  ASSERT_EQ(other.warnings.size(), 1u);
  EXPECT_EQ(other.warnings[0].file, "op_host/add_custom.cpp");
  EXPECT_GT(other.warnings[0].line, 0);
  EXPECT_NE(other.warnings[0].message.find("ascend310b"), std::string::npos) << other.warnings[0].message;
  EXPECT_NE(other.warnings[0].message.find(other.task.soc), std::string::npos) << other.warnings[0].message;
  fs::remove_all(copy);
}

TEST(OpProjectImport, ADtypeCombinationOfTheOpDefIsChosenByIndex) {
  const fs::path proj = freshDir("two-dtype-project");
  fs::copy(fixtures() / "add_custom", proj, fs::copy_options::recursive);
  std::string text;
  {
    std::ifstream in(proj / "op_host" / "add_custom.cpp");
    text.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  for (std::size_t at = text.find("{ge::DT_FLOAT16}"); at != std::string::npos;
       at = text.find("{ge::DT_FLOAT16}", at))
    text.replace(at, 16, "{ge::DT_FLOAT16, ge::DT_FLOAT}");
  std::ofstream(proj / "op_host" / "add_custom.cpp") << text;
  OperatorProjectImportOptions o = addOptions();
  o.dtypeColumn = 1;
  const OperatorProjectImport r = importOperatorProject(proj, o);
  ASSERT_TRUE(r.ok()) << r.errors.front().format();
  EXPECT_EQ(r.task.inputs[0].dtype, DType::Float32);
  EXPECT_EQ(r.task.outputs[0].dtype, DType::Float32);
  o.dtypeColumn = 2;
  const OperatorProjectImport beyond = importOperatorProject(proj, o);
  ASSERT_FALSE(beyond.ok());
  EXPECT_EQ(beyond.errors.front().file, "op_host/add_custom.cpp");
  EXPECT_EQ(beyond.errors.front().line, 53);
  fs::remove_all(proj);
}

TEST(OpProjectImport, TheProjectsOtherHeadersComeAlongAndCollisionsAreNamed) {
  const fs::path proj = freshDir("headers-project");
  fs::copy(fixtures() / "add_custom", proj, fs::copy_options::recursive);
  std::ofstream(proj / "op_kernel" / "add_custom_impl.h") << "// a kernel-side helper\n";
  std::ofstream(proj / "op_host" / "kwb_tiling.h") << "// the workbench's own header, carried by an export\n";
  OperatorProjectImport r = importOperatorProject(proj, addOptions());
  ASSERT_TRUE(r.ok()) << r.errors.front().format();
  EXPECT_NE(r.candidate.file("add_custom_impl.h"), nullptr);
  EXPECT_EQ(r.candidate.file("kwb_tiling.h"), nullptr) << "the workbench provides kwb_tiling.h itself";
  std::ofstream(proj / "op_host" / "add_custom_impl.h") << "// the same name on the host side\n";
  r = importOperatorProject(proj, addOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors.front().message.find("add_custom_impl.h"), std::string::npos)
      << r.errors.front().format();
  fs::remove_all(proj);
}

// The task folder an import writes is what a new session starts from: the same candidate, origin
// imported; a hand-edited imported/ folder is read as untrusted input.
TEST(ImportedTask, TheWrittenTaskFolderGivesBackTheImportedCandidate) {
  const OperatorProjectImport r = importOperatorProject(fixtures() / "add_custom", addOptions());
  ASSERT_TRUE(r.ok()) << r.errors.front().format();
  const fs::path out = freshDir("imported-task") / "add_custom";
  ASSERT_EQ(writeImportedTask(r, out), "");
  EXPECT_TRUE(fs::exists(out / "task.json"));
  EXPECT_TRUE(fs::exists(out / "reference.cpp"));
  const Task again = loadTaskDir(out);
  EXPECT_EQ(again.name, r.task.name);
  EXPECT_EQ(again.inputs.size(), r.task.inputs.size());
  const std::optional<Candidate> c = loadImportedCandidate(out);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->origin, Origin::Imported);
  EXPECT_EQ(c->files, r.candidate.files);
  // Writing twice into the same folder is refused, naming it.
  EXPECT_NE(writeImportedTask(r, out).find("already holds a task.json"), std::string::npos);
  // A task without imported/ has no imported candidate.
  EXPECT_FALSE(
      loadImportedCandidate(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "add_custom").has_value());
  // Something that is not a regular file under imported/ is an error naming it.
  fs::create_directories(out / "imported" / "nested.cpp");
  try {
    (void)loadImportedCandidate(out);
    ADD_FAILURE() << "a folder under imported/ was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("nested.cpp"), std::string::npos) << e.what();
  }
}

// A kernel-launch sample folder (core/agent/KernelLaunchImport.h): the signature from its one entry
// and the kernel's casts, the block count from main.cpp, the kernel adapted to the kwb_tiling form.
TEST(OpProjectImport, AKernelLaunchSampleBecomesATaskAndAKwbTilingCandidate) {
  const fs::path samples = fs::path(KWB_FIXTURES_DIR) / "kernel_launch";
  OperatorProjectImportOptions o;
  o.casesFile = samples / "mul_custom.cases.json";
  o.referenceFile = fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "mul_custom" / "reference.cpp";
  const OperatorProjectImport r = importOperatorProject(samples / "mul_custom", o);
  ASSERT_TRUE(r.ok()) << r.errors.front().format();
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.task.name, "mul_custom");
  ASSERT_EQ(r.task.inputs.size(), 2u);
  EXPECT_EQ(r.task.inputs[1].name, "y");
  EXPECT_EQ(r.task.inputs[1].dtype, DType::Float16);
  ASSERT_EQ(r.task.outputs.size(), 1u);
  EXPECT_EQ(r.task.outputs[0].name, "z");
  EXPECT_EQ(r.candidate.origin, Origin::Imported);
  ASSERT_EQ(r.candidate.files.size(), 1u);
  const std::string& kernel = r.candidate.files.at("mul_custom.cpp");
  EXPECT_NE(
      kernel.find("void mul_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)"),
      std::string::npos);
  EXPECT_NE(kernel.find("const uint32_t blocks = 8;"), std::string::npos);
  EXPECT_EQ(kernel.find("<<<"), std::string::npos);
  EXPECT_EQ(r.projectFiles.count("mul_custom.cpp"), 1u);
}

TEST(OpProjectImport, AKernelLaunchEntryWithAByValueParameterIsNamedAtItsLine) {
  const fs::path samples = fs::path(KWB_FIXTURES_DIR) / "kernel_launch";
  const fs::path dir = freshDir("kernel-launch-by-value");
  fs::copy(samples / "relu_custom", dir, fs::copy_options::recursive);
  {
    std::string text = readTextFileOrThrow(dir / "relu_custom.cpp", 1u << 20);
    const std::string entry = "void relu_custom(GM_ADDR x, GM_ADDR y)";
    text.replace(text.find(entry), entry.size(), "void relu_custom(GM_ADDR x, GM_ADDR y, uint32_t n)");
    std::ofstream(dir / "relu_custom.cpp", std::ios::trunc) << text;
  }
  OperatorProjectImportOptions o;
  o.casesFile = samples / "relu_custom.cases.json";
  o.referenceFile = fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "relu_custom" / "reference.cpp";
  const OperatorProjectImport r = importOperatorProject(dir, o);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].file, "relu_custom.cpp");
  EXPECT_EQ(r.errors[0].line, 52);
  EXPECT_NE(r.errors[0].message.find("\"uint32_t n\""), std::string::npos) << r.errors[0].message;
  fs::remove_all(dir);
}

TEST(OpProjectImport, TemplateAndSplitHostProjectsExportAndImportAgainUnchanged) {
  // tpl_scale keeps its tiling-key and tiling headers in op_kernel/ (both sides include them);
  // abs_split has two op_host sources, the OpDef's and the one registering the tiling.
  struct Project {
    const char* name;
    std::vector<const char*> exportedFiles;
  };
  for (const Project& p : {Project{"tpl_scale",
                                   {"op_kernel/tpl_scale.cpp", "op_kernel/tpl_scale_tiling_key.h",
                                    "op_kernel/tpl_scale_tiling.h", "op_host/tpl_scale.cpp"}},
                           Project{"abs_split",
                                   {"op_kernel/abs_split.cpp", "op_host/abs_split.cpp",
                                    "op_host/abs_split_def.cpp", "op_host/abs_split_tiling.h"}}}) {
    SCOPED_TRACE(p.name);
    OperatorProjectImportOptions o;
    o.casesFile = fixtures() / (std::string(p.name) + ".cases.json");
    o.referenceFile = fixtures() / (std::string(p.name) + ".reference.cpp");
    const OperatorProjectImport first = importOperatorProject(fixtures() / p.name, o);
    ASSERT_TRUE(first.ok()) << first.errors.front().format();
    EXPECT_EQ(first.candidate.files.size(), p.exportedFiles.size());
    Iteration it;
    it.id = 1;
    it.origin = Origin::Imported;
    it.verdict = Verdict::Pass;
    it.candidate = first.candidate;
    const fs::path exported = freshDir(std::string("msopgen-export-") + p.name);
    fs::remove_all(exported);
    exportOperatorProject(first.task, it, exported);
    for (const char* f : p.exportedFiles) EXPECT_TRUE(fs::exists(exported / f)) << f;
    const OperatorProjectImport again = importOperatorProject(exported, o);
    ASSERT_TRUE(again.ok()) << again.errors.front().format();
    EXPECT_EQ(nlohmann::json(again.task).dump(2), nlohmann::json(first.task).dump(2));
    EXPECT_EQ(again.candidate, first.candidate);
    fs::remove_all(exported);
    // Written back into a copy of the project: every file lands where the project keeps it.
    const fs::path copy = freshDir(std::string("written-back-") + p.name);
    fs::copy(fixtures() / p.name, copy, fs::copy_options::recursive);
    const auto written = writeCandidateIntoOperatorProject(first.candidate, copy);
    ASSERT_TRUE(written.empty()) << written.front().format();
    std::size_t files = 0;
    for (const auto& e : fs::recursive_directory_iterator(copy))
      if (e.is_regular_file()) ++files;
    EXPECT_EQ(files, p.exportedFiles.size()) << "no file written beside the project's own";
    const OperatorProjectImport second = importOperatorProject(copy, o);
    ASSERT_TRUE(second.ok()) << second.errors.front().format();
    EXPECT_EQ(second.candidate, first.candidate);
    EXPECT_EQ(second.projectFiles, first.projectFiles);
    fs::remove_all(copy);
  }
}
