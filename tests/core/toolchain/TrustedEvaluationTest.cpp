// SPDX-License-Identifier: MIT
// The trusted evaluation against our own hostile corpus (tests/fixtures/hostile_eval/): each candidate
// attacks one mechanism with the static policy switched off, so that it meets the layers behind it.
// One test per mechanism; each says what the attack tried and checks the host as well as the verdict.

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
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

Task addTask(std::initializer_list<const char*> cases) {
  Task t = loadTaskDir(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "add_custom");
  std::vector<VerificationCase> keep;
  for (const auto& c : t.cases)
    for (const char* n : cases)
      if (c.name == n) keep.push_back(c);
  t.cases = keep;
  return t;
}

// One folder per test and candidate: ctest runs tests in parallel processes, and two tests evaluating
// the same candidate in one folder would see each other's half-written binary.
fs::path workFor(const std::string& label) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return fs::path(KWB_TEST_BIN_DIR) / "trusted-eval" / (test ? test->name() : "none") / label;
}

EvalReport evalHostile(const Task& task, const std::string& file, bool policy = false) {
  BackendOptions o;
  o.cacheDir = fs::path(KWB_TEST_BIN_DIR) / "eval-cache";
  o.caseTimeout = std::chrono::milliseconds(60000);
  SimBackend backend(o);
  EvalRequest r;
  r.candidateSource = readText(fs::path(KWB_FIXTURES_DIR) / "hostile_eval" / file);
  r.candidateName = "kernel.cpp";
  r.seed = 77;
  r.workDir = workFor(file);
  r.cacheDir = o.cacheDir;
  r.policyChecks = policy;
  return evaluate(task, backend, r);
}

bool mentions(const EvalReport& r, const std::string& words) {
  for (const auto& d : r.diagnostics)
    if (d.message.find(words) != std::string::npos) return true;
  return false;
}

std::string dump(const EvalReport& r) {
  return nlohmann::json(r).dump(2).substr(0, 8000);
}

}  // namespace

TEST(TrustedEvaluation, CaseFolderCannotBeRewrittenAndTheReferenceKeepsItsOwnInputs) {
  const Task t = addTask({"below_one_block_15", "tail_16397"});
  const fs::path work = workFor("case_folder_vandal.cpp");
  fs::remove_all(work);
  fs::create_directories(work);
  { std::ofstream(work / "host_canary.txt") << "host data\n"; }
  const EvalReport r = evalHostile(t, "case_folder_vandal.cpp");
  EXPECT_EQ(r.verdict, Verdict::WrongAnswer) << dump(r);
  EXPECT_EQ(readText(work / "host_canary.txt"), "host data\n") << "a host file next to the case was touched";
  for (const auto& c : t.cases) {
    const fs::path out = work / "cases" / c.name / "out";
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(out)) {
      names.insert(e.path().filename().string());
      EXPECT_TRUE(e.is_regular_file() && !e.is_symlink()) << e.path();
    }
    EXPECT_EQ(names, (std::set<std::string>{"input_x.after.bin", "input_y.after.bin", "output_z.bin",
                                            "records.bin", "tiling.out"}));
    EXPECT_EQ(fs::file_size(work / "cases" / c.name / "in" / "input_y.bin"),
              static_cast<std::uintmax_t>(c.shapes.at("y")[0]) * 2)
        << "the inputs the run sees are read-only";
  }
}

TEST(TrustedEvaluation, BlockThatLeavesTheKernelEarlyIsARuntimeError) {
  const Task t = addTask({"below_one_block_15"});
  const EvalReport r = evalHostile(t, "exit_inside_kernel.cpp");
  EXPECT_EQ(r.verdict, Verdict::RuntimeError) << dump(r);
  EXPECT_TRUE(mentions(r, "ended without its end-of-kernel record")) << dump(r);
}

TEST(TrustedEvaluation, OutputsWrittenByHostCodeAfterTheLaunchAreNotTheKernels) {
  const Task t = addTask({"below_one_block_15", "sample_8x2048"});
  const EvalReport r = evalHostile(t, "host_writes_after_launch.cpp");
  EXPECT_EQ(r.verdict, Verdict::RuntimeError) << dump(r);
  EXPECT_TRUE(mentions(r, "without any recorded write")) << dump(r);
  // The forged report.json the program wrote is nowhere the workbench reads: the profile is its own.
  ASSERT_TRUE(r.profile.is_object()) << dump(r);
  EXPECT_NE(r.profile.value("computed_by", std::string()).find("workbench"), std::string::npos);
}

TEST(TrustedEvaluation, TilingRunsWhereNoTensorDataExists) {
  const Task t = addTask({"one_element", "below_one_block_15"});
  const EvalReport r = evalHostile(t, "tiling_ships_answers.cpp");
  EXPECT_EQ(r.verdict, Verdict::WrongAnswer) << "the tiling found the inputs: " << dump(r);
}

TEST(TrustedEvaluation, ScratchIsCappedAndLeavesNothingBehind) {
  const Task t = addTask({"below_one_block_15"});
  const EvalReport r = evalHostile(t, "scratch_filler.cpp");
  EXPECT_EQ(r.verdict, Verdict::Pass) << dump(r);
  const fs::path caseDir = workFor("scratch_filler.cpp") / "cases" / "below_one_block_15";
  EXPECT_TRUE(fs::is_empty(caseDir / "work"))
      << "the run's working folder is a tmpfs: nothing may reach the host";
  std::uintmax_t total = 0;
  for (const auto& e : fs::recursive_directory_iterator(caseDir))
    if (e.is_regular_file()) total += e.file_size();
  EXPECT_LT(total, 16u << 20) << "the case folder holds what the run wrote to its scratch";
}

TEST(TrustedEvaluation, PolicyRejectsTheWholeCorpus) {
  const Task t = addTask({"below_one_block_15"});
  for (const auto& e : fs::directory_iterator(fs::path(KWB_FIXTURES_DIR) / "hostile_eval")) {
    if (e.path().extension() != ".cpp") continue;
    // Raw pointers are legal Ascend C (and what agents write): the emulator sees and costs them.
    const std::string name = e.path().filename().string();
    const bool legal = name == "raw_pointer_scalar.cpp" || name == "vector_reference.cpp";
    const EvalReport r = evalHostile(t, name, true);
    EXPECT_EQ(r.verdict, legal ? Verdict::Pass : Verdict::Rejected) << name << "\n" << dump(r);
  }
}

TEST(TrustedEvaluation, RawPointerLoopsAreSeenCheckedAndCostedAsScalarAccess) {
  const Task t = addTask({"sample_8x2048"});
  const EvalReport scalar = evalHostile(t, "raw_pointer_scalar.cpp");
  const EvalReport vector = evalHostile(t, "vector_reference.cpp");
  ASSERT_EQ(vector.verdict, Verdict::Pass) << dump(vector);
  ASSERT_EQ(scalar.verdict, Verdict::Pass) << dump(scalar);
  const double scalarUs = scalar.profile.value("total_us", 0.0),
               vectorUs = vector.profile.value("total_us", 0.0);
  ASSERT_GT(vectorUs, 0.0);
  EXPECT_GT(scalarUs, 5 * vectorUs) << "a scalar GM loop must cost what it costs on hardware: " << scalarUs
                                    << " us vs " << vectorUs << " us";
}
