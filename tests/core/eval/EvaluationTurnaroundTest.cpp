// SPDX-License-Identifier: MIT
// The turnaround changes of issue 20 seen through whole evaluations of add_custom on the emulator
// (docs/architecture.md, "Evaluation caches"): a cached clean policy verdict is used for the same
// candidate only, an edit is checked again, damaged entries of every cache are discarded and rebuilt
// with a warning and the same verdict, and cases run side by side give the serial run's report.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

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

void flipLastByte(const fs::path& p) {
  std::string bytes = readText(p);
  ASSERT_FALSE(bytes.empty()) << p;
  bytes.back() = static_cast<char>(bytes.back() ^ 0x5a);
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
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

std::string expertSource() {
  return readText(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "add_custom" / "expert_candidate.cpp");
}

// Own folders per test: ctest runs tests in parallel processes.
fs::path testDir(const std::string& label) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return fs::path(KWB_TEST_BIN_DIR) / "eval-turnaround" / (test ? test->name() : "none") / label;
}

// clang-tidy flags the implicit noexcept move constructor: it cannot prove nlohmann::json's noexcept
// move (inside EvalReport) non-throwing.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct Evaluation {
  EvalReport report;
  std::vector<std::string> progress;
};

Evaluation evaluateIn(const Task& task, const std::string& source, const fs::path& cacheDir, int workers = 0,
                      bool policy = true, const std::string& label = "work") {
  BackendOptions o;
  o.cacheDir = cacheDir;
  SimBackend backend(o);
  Evaluation e;
  EvalRequest r;
  r.candidateSource = source;
  r.seed = 20;
  r.workDir = testDir(label);
  r.cacheDir = cacheDir;
  r.caseWorkers = workers;
  r.policyChecks = policy;
  r.progress = [&e](const std::string& line) { e.progress.push_back(line); };
  r.onStage = [&e](EvalStage s, const std::string& c) {
    e.progress.push_back(std::string(evalStageName(s)) + " " + c);
  };
  e.report = evaluate(task, backend, r);
  return e;
}

std::size_t cacheWarnings(const EvalReport& r) {
  std::size_t n = 0;
  for (const auto& d : r.diagnostics)
    if (d.category == category::CacheIntegrity) ++n;
  return n;
}

std::vector<fs::path> entries(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && e.path().extension() != ".sha256") out.push_back(e.path());
  }
  return out;
}

// The report without what differs from run to run (times, folders).
nlohmann::json comparable(const EvalReport& r) {
  nlohmann::json j = r;
  j.erase("duration_ms");
  j.erase("timings");
  j.erase("artifacts");
  j.erase("compile");
  for (auto& run : j["runs"]) {
    run.erase("dir");
    run["run"].erase("duration_ms");
  }
  return j;
}

std::string dump(const EvalReport& r) {
  return nlohmann::json(r).dump(2).substr(0, 6000);
}

}  // namespace

TEST(EvaluationTurnaround, PolicyVerdictIsReusedForTheSameCandidateOnly) {
  const Task t = addTask({"one_element"});
  const fs::path cache = testDir("cache");
  fs::remove_all(cache);
  const Evaluation first = evaluateIn(t, expertSource(), cache);
  ASSERT_EQ(first.report.verdict, Verdict::Pass) << dump(first.report);
  ASSERT_EQ(entries(cache / "policy", "policy-").size(), 1u);
  const Evaluation again = evaluateIn(t, expertSource(), cache);
  EXPECT_EQ(again.report.verdict, Verdict::Pass) << dump(again.report);
  EXPECT_EQ(entries(cache / "policy", "policy-").size(), 1u) << "the same candidate has the same key";
  EXPECT_EQ(cacheWarnings(again.report), 0u) << dump(again.report);
  // An edit that breaks the policy is checked again, not served from the clean entry.
  const Evaluation edited = evaluateIn(t, "#include <cstdio>\n" + expertSource(), cache);
  EXPECT_EQ(edited.report.verdict, Verdict::Rejected) << dump(edited.report);
  EXPECT_EQ(entries(cache / "policy", "policy-").size(), 1u) << "a rejected candidate is not remembered";
  // A damaged entry is discarded with a warning and the policy runs again.
  flipLastByte(entries(cache / "policy", "policy-").front());
  const Evaluation damaged = evaluateIn(t, expertSource(), cache);
  EXPECT_EQ(damaged.report.verdict, Verdict::Pass) << dump(damaged.report);
  EXPECT_EQ(cacheWarnings(damaged.report), 1u) << dump(damaged.report);
}

TEST(EvaluationTurnaround, DamagedCaseDataAndHarnessEntriesAreRebuiltWithTheSameResult) {
  const Task t = addTask({"one_element", "tail_16397"});
  const fs::path cache = testDir("cache");
  fs::remove_all(cache);
  const Evaluation first = evaluateIn(t, expertSource(), cache);
  ASSERT_EQ(first.report.verdict, Verdict::Pass) << dump(first.report);
  ASSERT_EQ(entries(cache / "cases", "inputs-").size(), 2u);
  ASSERT_EQ(entries(cache / "cases", "reference-").size(), 2u);
  ASSERT_EQ(entries(cache, "harness-").size(), 1u);
  const Evaluation cached = evaluateIn(t, expertSource(), cache);
  EXPECT_EQ(comparable(cached.report), comparable(first.report))
      << "the cached inputs and outputs are the same";
  EXPECT_EQ(cacheWarnings(cached.report), 0u) << dump(cached.report);

  for (const auto& e : entries(cache / "cases", "")) flipLastByte(e);
  flipLastByte(entries(cache, "harness-").front());
  // An edited candidate, so that the program is built again and links the harness object.
  const Evaluation damaged = evaluateIn(t, expertSource() + "\n// edited\n", cache);
  EXPECT_EQ(damaged.report.verdict, Verdict::Pass) << dump(damaged.report);
  EXPECT_EQ(cacheWarnings(damaged.report), 5u) << "2 inputs, 2 reference outputs, 1 harness object\n"
                                               << dump(damaged.report);
  EXPECT_EQ(comparable(damaged.report)["verify"], comparable(first.report)["verify"]);
  const Evaluation rebuilt = evaluateIn(t, expertSource(), cache);
  EXPECT_EQ(cacheWarnings(rebuilt.report), 0u) << "the entries were stored again\n" << dump(rebuilt.report);
}

TEST(EvaluationTurnaround, CasesSideBySideGiveTheSerialReport) {
  const Task t = addTask({"sample_8x2048", "one_element", "below_one_block_15", "odd_2d_37x555"});
  const fs::path cache = testDir("cache");
  const Evaluation serial = evaluateIn(t, expertSource(), cache, 1, true, "serial");
  const Evaluation parallel = evaluateIn(t, expertSource(), cache, 2, true, "parallel");
  ASSERT_EQ(serial.report.verdict, Verdict::Pass) << dump(serial.report);
  EXPECT_EQ(comparable(parallel.report), comparable(serial.report));
  EXPECT_EQ(parallel.progress, serial.progress);
  std::vector<std::string> casesInTimings;
  for (const auto& p : parallel.report.timings)
    if (!p.caseName.empty() && (casesInTimings.empty() || casesInTimings.back() != p.caseName))
      casesInTimings.push_back(p.caseName);
  EXPECT_EQ(casesInTimings, (std::vector<std::string>{"sample_8x2048", "one_element", "below_one_block_15",
                                                      "odd_2d_37x555"}));
}

TEST(EvaluationTurnaround, CaseThatFailsSideBySideEndsTheEvaluationAsInSerial) {
  // Every case of this candidate fails at run time: the evaluation stops at the first, whatever ran
  // beside it.
  const Task t = addTask({"below_one_block_15", "one_element", "tail_16397"});
  const fs::path cache = testDir("cache");
  const std::string hostile =
      readText(fs::path(KWB_FIXTURES_DIR) / "hostile_eval" / "exit_inside_kernel.cpp");
  const Evaluation serial = evaluateIn(t, hostile, cache, 1, false, "serial");
  const Evaluation parallel = evaluateIn(t, hostile, cache, 2, false, "parallel");
  ASSERT_EQ(serial.report.verdict, Verdict::RuntimeError) << dump(serial.report);
  EXPECT_EQ(parallel.report.verdict, Verdict::RuntimeError) << dump(parallel.report);
  EXPECT_EQ(parallel.report.runs.size(), 1u);
  EXPECT_EQ(parallel.report.summary, serial.report.summary);
  EXPECT_EQ(parallel.progress, serial.progress);
}
