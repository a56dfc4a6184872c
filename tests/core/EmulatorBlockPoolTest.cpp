// SPDX-License-Identifier: MIT
// The launch's worker pool (docs/emulator.md, "Speed"): blocks run several to a process, and every check
// behaves as with one process per block. Each program of tests/emulator/pool runs twice: in the pool
// (KWB_SIM_JOBS=1 or 2: fewer workers than blocks) and with KWB_SIM_BLOCKS_PER_PROCESS=1 (a fresh process
// per block, as before the pool); the diagnostics and the block statuses must be the same.

#include "core/process/ProcessRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

fs::path poolPrograms() {
  return fs::path(KWB_SOURCE_DIR) / "tests" / "emulator" / "pool";
}

class Scratch {
 public:
  explicit Scratch(const std::string& name) {
    path_ = fs::temp_directory_path() /
            ("kwb_pool_" + name + "_" + std::to_string(::getpid()) + "_" +
             std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::create_directories(path_);
  }
  ~Scratch() {
    if (!::testing::Test::HasFailure()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct SimRun {
  kwb::ProcessResult process;
  nlohmann::json report;
};

// Builds tests/emulator/pool/<name>.cpp into the scratch folder; empty path on failure (test failed).
fs::path build(const Scratch& dir, const std::string& name) {
  const fs::path app = dir.path() / name;
  kwb::ProcessSpec spec;
  spec.argv = {KWB_KWB_EXE, "sim", "build", "-o", app.string(), (poolPrograms() / (name + ".cpp")).string()};
  spec.timeout = std::chrono::minutes(5);
  const kwb::ProcessResult r = kwb::ProcessRunner().run(spec);
  EXPECT_EQ(r.exitCode, 0) << r.describe() << "\n" << r.stderrText.substr(0, 8000);
  return r.exitCode == 0 ? app : fs::path();
}

SimRun run(const Scratch& dir, const fs::path& app, const std::map<std::string, std::string>& env) {
  static int n = 0;
  const fs::path report = dir.path() / ("report" + std::to_string(++n) + ".json");
  kwb::ProcessSpec spec;
  spec.argv = {app.string()};
  spec.workingDirectory = dir.path().string();
  spec.environment = env;
  spec.environment["KWB_SIM_REPORT"] = report.string();
  spec.timeout = std::chrono::minutes(2);
  SimRun r;
  r.process = kwb::ProcessRunner().run(spec);
  std::ifstream in(report);
  std::stringstream text;
  text << in.rdbuf();
  r.report = nlohmann::json::parse(text.str(), nullptr, false);
  EXPECT_TRUE(r.report.is_object()) << "no report: " << r.process.describe() << "\n"
                                    << r.process.stderrText.substr(0, 8000);
  if (!r.report.is_object()) r.report = nlohmann::json::object();
  return r;
}

std::vector<std::string> statuses(const nlohmann::json& report) {
  std::vector<std::string> out;
  if (!report.contains("launches") || report["launches"].empty()) return out;
  for (const auto& b : report["launches"][0].value("block_status", nlohmann::json::array()))
    out.push_back(b.value("status", ""));
  return out;
}

// The diagnostics without what may differ between runs (wall times are not in them).
nlohmann::json diagnostics(const nlohmann::json& report) {
  return report.value("diagnostics", nlohmann::json::array());
}

const nlohmann::json* findDiag(const nlohmann::json& report, const std::string& category) {
  for (const auto& d : report["diagnostics"])
    if (d.value("category", "") == category) return &d;
  return nullptr;
}

bool hasNote(const nlohmann::json& d, const std::string& text) {
  for (const auto& n : d.value("notes", nlohmann::json::array()))
    if (n.is_string() && n.get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

std::map<std::string, std::string> perProcess() {
  return {{"KWB_SIM_BLOCKS_PER_PROCESS", "1"}};
}

}  // namespace

TEST(EmulatorBlockPool, MoreBlocksThanWorkersWithSyncAllAllRunAndMatch) {
  Scratch dir("many");
  const fs::path app = build(dir, "pool_many_blocks");
  ASSERT_FALSE(app.empty());
  for (const char* jobs : {"1", "2"}) {
    const SimRun r = run(dir, app, {{"KWB_SIM_JOBS", jobs}});
    EXPECT_EQ(r.process.exitCode, 0) << "jobs " << jobs << ": " << r.process.stderrText.substr(0, 8000);
    EXPECT_NE(r.process.stdoutText.find("PASS"), std::string::npos) << r.process.stdoutText;
    EXPECT_EQ(r.report.value("status", ""), "ok");
    EXPECT_EQ(statuses(r.report), std::vector<std::string>(9, "ok"));
  }
}

TEST(EmulatorBlockPool, EveryBlockStartsFreshInAReusedWorker) {
  Scratch dir("fresh");
  const fs::path app = build(dir, "pool_fresh_state");
  ASSERT_FALSE(app.empty());
  const SimRun pool = run(dir, app, {{"KWB_SIM_JOBS", "1"}});
  const SimRun fresh = run(dir, app, perProcess());
  // The poison, not what the previous block left in UB.
  EXPECT_NE(pool.process.stdoutText.find("POISON"), std::string::npos) << pool.process.stdoutText;
  for (const SimRun* r : {&pool, &fresh}) {
    const nlohmann::json* uninit = findDiag(r->report, "uninitialized-read");
    ASSERT_NE(uninit, nullptr) << r->report.dump(2);
    EXPECT_TRUE(hasNote(*uninit, "reported by 5 of 5 blocks: 0-4")) << uninit->dump(2);
    const nlohmann::json* leak = findDiag(r->report, "queue-misuse");
    ASSERT_NE(leak, nullptr) << r->report.dump(2);
    EXPECT_TRUE(hasNote(*leak, "reported by 5 of 5 blocks: 0-4")) << leak->dump(2);
  }
  EXPECT_EQ(diagnostics(pool.report), diagnostics(fresh.report));
  EXPECT_EQ(statuses(pool.report), statuses(fresh.report));
  // Kernel statics live as long as the process that runs the blocks (the documented choice): one
  // worker counts 1..5, one process per block 1 each.
  EXPECT_NE(pool.process.stdoutText.find("calls: 1 2 3 4 5"), std::string::npos) << pool.process.stdoutText;
  EXPECT_NE(fresh.process.stdoutText.find("calls: 1 1 1 1 1"), std::string::npos) << fresh.process.stdoutText;
}

TEST(EmulatorBlockPool, ACrashInAMiddleBlockIsThatBlocksAndTheRestStillRun) {
  Scratch dir("crash");
  const fs::path app = build(dir, "pool_crash_middle");
  ASSERT_FALSE(app.empty());
  const SimRun pool = run(dir, app, {{"KWB_SIM_JOBS", "1"}});
  const SimRun fresh = run(dir, app, perProcess());
  for (const SimRun* r : {&pool, &fresh}) {
    EXPECT_NE(r->process.stdoutText.find("OTHERS-RAN"), std::string::npos) << r->process.stdoutText;
    EXPECT_EQ(r->process.exitCode, 1);
    const nlohmann::json* crash = findDiag(r->report, "runtime-crash");
    ASSERT_NE(crash, nullptr) << r->report.dump(2);
    EXPECT_EQ(crash->value("block", -1), 2);
    EXPECT_EQ(statuses(r->report), (std::vector<std::string>{"ok", "ok", "crashed", "ok", "ok", "ok"}));
  }
  EXPECT_EQ(diagnostics(pool.report), diagnostics(fresh.report));
}

TEST(EmulatorBlockPool, AHangInAMiddleBlockIsThatBlocksTimeoutAndTheRestStillRun) {
  Scratch dir("hang");
  const fs::path app = build(dir, "pool_hang_middle");
  ASSERT_FALSE(app.empty());
  const std::map<std::string, std::string> timeout{{"KWB_SIM_BLOCK_TIMEOUT_MS", "1500"}};
  std::map<std::string, std::string> poolEnv = timeout, freshEnv = timeout;
  poolEnv["KWB_SIM_JOBS"] = "1";
  freshEnv.merge(perProcess());
  const SimRun pool = run(dir, app, poolEnv);
  const SimRun fresh = run(dir, app, freshEnv);
  for (const SimRun* r : {&pool, &fresh}) {
    EXPECT_NE(r->process.stdoutText.find("OTHERS-RAN"), std::string::npos) << r->process.stdoutText;
    const nlohmann::json* hang = findDiag(r->report, "timeout");
    ASSERT_NE(hang, nullptr) << r->report.dump(2);
    EXPECT_EQ(hang->value("block", -1), 1);
    EXPECT_EQ(statuses(r->report), (std::vector<std::string>{"ok", "timeout", "ok", "ok"}));
  }
  EXPECT_EQ(diagnostics(pool.report), diagnostics(fresh.report));
}
