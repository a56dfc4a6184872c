// SPDX-License-Identifier: MIT
// End-to-end evaluations on the emulator backend: the broken-candidate fixtures get the right verdict
// and a report an agent can act on; an unchanged candidate is not recompiled.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>

#include "core/eval/Evaluator.h"
#include "core/model/Task.h"
#include "core/toolchain/SimBackend.h"

using namespace kwb;
namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path tasksDir() {
  return fs::path(KWB_SOURCE_DIR) / "resources" / "tasks";
}

// add_custom with only the cases the fixtures need (keeps the test fast).
Task addTask(std::initializer_list<const char*> cases) {
  Task t = loadTaskDir(tasksDir() / "add_custom");
  std::vector<VerificationCase> keep;
  for (const auto& c : t.cases)
    for (const char* n : cases)
      if (c.name == n) keep.push_back(c);
  t.cases = keep;
  return t;
}

EvalReport evalSource(const Task& task, const std::string& source, const std::string& label,
                      std::chrono::milliseconds timeout = std::chrono::milliseconds(60000),
                      fs::path cacheDir = fs::path(KWB_TEST_BIN_DIR) / "eval-cache") {
  BackendOptions o;
  o.soc = "Ascend910B1";
  o.cacheDir = cacheDir;
  o.caseTimeout = timeout;
  SimBackend backend(o);
  EvalRequest r;
  r.candidateSource = source;
  r.candidateName = label;
  r.seed = 1234;
  r.workDir = fs::path(KWB_TEST_BIN_DIR) / "eval-work" / label;
  r.cacheDir = o.cacheDir;
  return evaluate(task, backend, r);
}

EvalReport evalFixture(const Task& task, const std::string& file,
                       std::chrono::milliseconds timeout = std::chrono::milliseconds(60000)) {
  return evalSource(task, readText(fs::path(KWB_FIXTURES_DIR) / "candidates" / file), file, timeout);
}

const verify::TensorCheck* firstFailing(const EvalReport& r) {
  for (const auto& c : r.verify.cases)
    for (const auto& t : c.outputs)
      if (!t.passed) return &t;
  return nullptr;
}

std::string dump(const EvalReport& r) {
  return nlohmann::json(r).dump(2).substr(0, 6000);
}

}  // namespace

TEST(BackendSim, ExpertAddPassesAndBuildIsCached) {
  const Task t = addTask({"sample_8x2048", "tail_16397", "below_one_block_15"});
  const std::string src = readText(tasksDir() / "add_custom" / "expert_candidate.cpp");
  const EvalReport a = evalSource(t, src, "expert_add");
  ASSERT_EQ(a.verdict, Verdict::Pass) << dump(a);
  EXPECT_EQ(a.ranOn, RanOn::Emulator);
  EXPECT_EQ(a.verify.cases.size(), 3u);
  EXPECT_GT(a.verify.cases[1].blockDim, 1) << "tail_16397 must run on several blocks";
  const EvalReport b = evalSource(t, src, "expert_add");
  ASSERT_TRUE(b.compile.has_value());
  EXPECT_TRUE(b.compile->cached) << "an unchanged candidate must not be recompiled";
  EXPECT_EQ(b.verdict, Verdict::Pass);
  // Another compiler is another build: the cache must not hand back g++'s program.
  const fs::path fresh = fs::path(KWB_TEST_BIN_DIR) / ("eval-cache-cxx-" + std::to_string(::getpid()));
  fs::remove_all(fresh);
  ASSERT_EQ(evalSource(t, src, "expert_add_gxx", std::chrono::milliseconds(60000), fresh).verdict,
            Verdict::Pass);
  ::setenv("KWB_SIM_CXX", "c++", 1);
  const EvalReport c = evalSource(t, src, "expert_add_cxx", std::chrono::milliseconds(60000), fresh);
  ::unsetenv("KWB_SIM_CXX");
  fs::remove_all(fresh);
  ASSERT_TRUE(c.compile.has_value());
  EXPECT_FALSE(c.compile->cached) << "a different KWB_SIM_CXX reused a cached build";
  EXPECT_EQ(c.verdict, Verdict::Pass) << dump(c);
}

TEST(BackendSim, WrongTailIsCaughtAsTailPattern) {
  const Task t = addTask({"sample_8x2048", "tail_16397"});
  const EvalReport r = evalFixture(t, "wrong_tail.cpp");
  ASSERT_EQ(r.verdict, Verdict::WrongAnswer) << dump(r);
  const auto* f = firstFailing(r);
  ASSERT_NE(f, nullptr);
  // Never written (the harness's poison is still there), and where: the end of the output.
  EXPECT_EQ(f->pattern.kind, verify::PatternKind::Unwritten) << f->summary;
  EXPECT_NE(f->summary.find("the end of the output is never copied out"), std::string::npos) << f->summary;
  EXPECT_EQ(f->unwritten, 13);
  EXPECT_NE(f->summary.find("never written"), std::string::npos);
  EXPECT_TRUE(r.verify.cases[0].passed);
}

TEST(BackendSim, OneBlockWrongNamesTheBlock) {
  const Task t = addTask({"sample_8x2048"});
  const EvalReport r = evalFixture(t, "one_block_wrong.cpp");
  ASSERT_EQ(r.verdict, Verdict::WrongAnswer) << dump(r);
  const auto* f = firstFailing(r);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->pattern.kind, verify::PatternKind::BlockOnly) << f->summary;
  EXPECT_EQ(f->pattern.block, 1);
  bool diagHasBlock = false;
  for (const auto& d : r.diagnostics)
    if (d.category == "wrong-answer" && d.block == 1) diagHasBlock = true;
  EXPECT_TRUE(diagHasBlock);
}

TEST(BackendSim, ZerosAreRejected) {
  const Task t = addTask({"sample_8x2048"});
  const EvalReport r = evalFixture(t, "zeros.cpp");
  ASSERT_EQ(r.verdict, Verdict::WrongAnswer) << dump(r);
  const auto* f = firstFailing(r);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->pattern.kind, verify::PatternKind::ConstantOutput) << f->summary;
}

TEST(BackendSim, ModifiedInputsAreReported) {
  const Task t = addTask({"sample_8x2048"});
  const EvalReport r = evalFixture(t, "modifies_inputs.cpp");
  ASSERT_EQ(r.verdict, Verdict::WrongAnswer) << dump(r);
  ASSERT_FALSE(r.verify.cases.empty());
  ASSERT_FALSE(r.verify.cases[0].modifiedInputs.empty());
  EXPECT_EQ(r.verify.cases[0].modifiedInputs[0].tensor, "x");
  EXPECT_NE(r.verify.summary().find("modified"), std::string::npos);
}

TEST(BackendSim, PolicyBreachIsRejectedBeforeCompiling) {
  const Task t = addTask({"sample_8x2048"});
  const EvalReport r = evalFixture(t, "policy_breach.cpp");
  ASSERT_EQ(r.verdict, Verdict::Rejected) << dump(r);
  EXPECT_FALSE(r.compile.has_value());
  ASSERT_GE(r.diagnostics.size(), 2u);
  for (const auto& d : r.diagnostics) {
    EXPECT_EQ(d.category, "policy-violation");
    EXPECT_GT(d.line, 0);
  }
}

TEST(BackendSim, HostileForkIsRejected) {
  const Task t = addTask({"sample_8x2048"});
  const EvalReport r = evalFixture(t, "hostile_fork.cpp");
  ASSERT_EQ(r.verdict, Verdict::Rejected) << dump(r);
  EXPECT_EQ(r.diagnostics.front().api, "fork");
}

TEST(BackendSim, UnalignedDataCopyIsARuntimeErrorAtTheLine) {
  const Task t = addTask({"below_one_block_15"});
  const EvalReport r = evalFixture(t, "unaligned_datacopy.cpp");
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << dump(r);
  const std::string src = readText(fs::path(KWB_FIXTURES_DIR) / "candidates" / "unaligned_datacopy.cpp");
  int line = 1;
  for (std::size_t i = 0; i < src.find("DataCopy(l, xGm[off], n);"); ++i) line += src[i] == '\n';
  bool found = false;
  for (const auto& d : r.diagnostics)
    if (d.category == "misaligned-copy" && d.line == line && d.file == "kernel.cpp") found = true;
  EXPECT_TRUE(found) << dump(r);
}

TEST(BackendSim, HostileSpinTimesOut) {
  const Task t = addTask({"below_one_block_15"});
  const EvalReport r = evalFixture(t, "hostile_spin.cpp", std::chrono::milliseconds(5000));
  ASSERT_EQ(r.verdict, Verdict::Timeout) << dump(r);
  EXPECT_LT(r.durationMs, 120000.0);
}

namespace {
// The expert add_custom split in two (docs/candidate-contract.md, "Several files"): the tiling struct
// and kwb_tiling in a header of the candidate's own, the kernel including it.
std::pair<std::string, std::string> splitExpert() {
  const std::string src = readText(tasksDir() / "add_custom" / "expert_candidate.cpp");
  const auto kernelAt = src.find("#if KWB_COMPILE_KERNEL");
  const auto tilingAt = src.find("#if KWB_COMPILE_TILING");
  const std::string header = "#pragma once\n" + src.substr(0, kernelAt) + src.substr(tilingAt);
  const std::string kernel = "#include \"add_custom_tiling.h\"\n" + src.substr(kernelAt, tilingAt - kernelAt);
  return {kernel, header};
}

EvalReport evalFiles(const Task& task, const std::string& kernel,
                     std::map<std::string, std::string> companions, const std::string& label,
                     fs::path cacheDir = fs::path(KWB_TEST_BIN_DIR) / "eval-cache") {
  BackendOptions o;
  o.soc = "Ascend910B1";
  o.cacheDir = cacheDir;
  SimBackend backend(o);
  EvalRequest r;
  r.candidateSource = kernel;
  r.companionFiles = std::move(companions);
  r.seed = 1234;
  r.workDir = fs::path(KWB_TEST_BIN_DIR) / "eval-work" / label;
  r.cacheDir = o.cacheDir;
  return evaluate(task, backend, r);
}
}  // namespace

TEST(BackendSim, AMultiFileCandidateIsBuiltWithItsHeader) {
  const Task t = addTask({"sample_8x2048", "tail_16397"});
  const auto [kernel, header] = splitExpert();
  // A cache of this run's own: what an earlier run built must not answer for this one.
  const fs::path cache = fs::path(KWB_TEST_BIN_DIR) / ("eval-cache-multi-" + std::to_string(::getpid()));
  fs::remove_all(cache);
  const EvalReport r = evalFiles(t, kernel, {{"add_custom_tiling.h", header}}, "multi_file", cache);
  ASSERT_EQ(r.verdict, Verdict::Pass) << dump(r);
  // Without its header the same kernel is refused (an include of an unknown file): the header was used.
  const EvalReport alone = evalFiles(t, kernel, {}, "multi_file_alone");
  EXPECT_NE(alone.verdict, Verdict::Pass) << dump(alone);
  // A changed header is a different build.
  std::string slower = header;
  slower.replace(slower.find("if (tile > 8192) tile = 8192;"), 29, "if (tile > 1024) tile = 1024;");
  const EvalReport b = evalFiles(t, kernel, {{"add_custom_tiling.h", slower}}, "multi_file_b", cache);
  const EvalReport again = evalFiles(t, kernel, {{"add_custom_tiling.h", header}}, "multi_file", cache);
  fs::remove_all(cache);
  ASSERT_EQ(b.verdict, Verdict::Pass) << dump(b);
  ASSERT_TRUE(b.compile.has_value());
  EXPECT_FALSE(b.compile->cached) << "a changed header reused the build of the old one";
  ASSERT_TRUE(again.compile.has_value());
  EXPECT_TRUE(again.compile->cached) << "an unchanged multi-file candidate was recompiled";
}

TEST(BackendSim, AForbiddenConstructInAnIncludedCandidateHeaderIsRejected) {
  const Task t = addTask({"sample_8x2048"});
  const auto [kernel, header] = splitExpert();
  const std::string hostile = header + "inline int sneaky() { return sy\\\nstem(\"id\"); }\n";
  const EvalReport r = evalFiles(t, kernel, {{"add_custom_tiling.h", hostile}}, "multi_file_hostile");
  ASSERT_EQ(r.verdict, Verdict::Rejected) << dump(r);
  EXPECT_FALSE(r.compile.has_value());
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics.front().category, "policy-violation");
  EXPECT_EQ(r.diagnostics.front().file, "add_custom_tiling.h");
}

TEST(BackendSim, CandidateFileNamesAreCheckedBeforeAnythingIsWritten) {
  const Task t = addTask({"sample_8x2048"});
  const auto [kernel, header] = splitExpert();
  for (const std::string bad : {"../add_custom_tiling.h", "harness_main.cpp", "kernel.cpp", "/tmp/x.h"}) {
    const EvalReport r = evalFiles(t, kernel, {{bad, header}}, "multi_file_name");
    EXPECT_EQ(r.verdict, Verdict::Rejected) << bad << "\n" << dump(r);
    EXPECT_FALSE(r.compile.has_value()) << bad;
    ASSERT_FALSE(r.diagnostics.empty()) << bad;
    EXPECT_NE(r.diagnostics.front().message.find(bad), std::string::npos) << r.diagnostics.front().message;
  }
  EXPECT_FALSE(fs::exists(fs::path(KWB_TEST_BIN_DIR) / "eval-work" / "add_custom_tiling.h"));
}
