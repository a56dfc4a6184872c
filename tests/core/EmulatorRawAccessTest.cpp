// SPDX-License-Identifier: MIT
// Raw pointer accesses by kernel code (runtime/RawAccess.cpp): a scalar add through `__gm__ half*`
// pointers must compute the right answer, show its reads and writes in the trace, and be costed as the
// scalar GM accesses it is - far slower than the vector kernel of the same shape. The diagnostics of
// raw accesses (gm-out-of-bounds, ub-out-of-bounds, multicore-overlap) are covered by the broken
// programs tests/emulator/broken/raw_*.cpp that EmulatorCorpusTest runs.

#include "core/process/ProcessRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const fs::path kRawDir = fs::path(KWB_SOURCE_DIR) / "tests" / "emulator" / "raw";

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct RawRun {
  nlohmann::json report;
  std::string traceJson;
  std::string output;
};

// Builds tests/emulator/raw/<name>.cpp with `kwb sim build`, runs it with a report, returns the report
// and the Chrome trace written next to it.
// `tag` names a second run of the same program (built once) with extra environment `env`.
RawRun buildAndRun(const std::string& name, const fs::path& scratch, const std::string& tag = "",
                   const std::map<std::string, std::string>& env = {}) {
  RawRun out;
  const std::string run_ = name + tag;
  const fs::path app = scratch / name, report = scratch / (run_ + ".json"), prof = scratch / (run_ + "_prof");
  fs::create_directories(prof);
  if (!fs::exists(app)) {
    kwb::ProcessSpec build;
    build.argv = {KWB_KWB_EXE, "sim", "build", "-o", app.string(), (kRawDir / (name + ".cpp")).string()};
    build.timeout = std::chrono::minutes(5);
    const kwb::ProcessResult b = kwb::ProcessRunner().run(build);
    EXPECT_TRUE(b.ok()) << b.describe() << "\n" << b.stderrText.substr(0, 4000);
    if (!b.ok()) return out;
  }
  kwb::ProcessSpec run;
  run.argv = {app.string()};
  run.workingDirectory = scratch.string();
  run.environment["KWB_SIM_REPORT"] = report.string();
  run.environment["KWB_SIM_PROFILE_DIR"] = prof.string();
  for (const auto& [k, v] : env) run.environment[k] = v;
  run.timeout = std::chrono::minutes(2);
  const kwb::ProcessResult r = kwb::ProcessRunner().run(run);
  out.output = r.stdoutText + r.stderrText;
  EXPECT_TRUE(r.ok()) << name << ": " << r.describe() << "\n" << out.output.substr(0, 4000);
  EXPECT_NE(r.stdoutText.find("PASS"), std::string::npos)
      << name << " computed a wrong result: " << out.output;
  out.report = nlohmann::json::parse(slurp(report), nullptr, false);
  out.traceJson = slurp(prof / "trace.json");
  return out;
}

double totalCycles(const nlohmann::json& report) {
  if (!report.is_object() || !report.contains("profile")) return 0;
  return report["profile"].value("total_cycles", 0.0);
}

}  // namespace

TEST(EmulatorRawAccess, ScalarAddThroughRawGmPointersIsCorrectRecordedAndMuchSlowerThanVector) {
  const fs::path scratch = fs::temp_directory_path() /
                           ("kwb_raw_" + std::to_string(::getpid()) + "_" +
                            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::create_directories(scratch);
  const RawRun scalar = buildAndRun("scalar_add", scratch);
  const RawRun vec = buildAndRun("vector_add", scratch);
  ASSERT_TRUE(scalar.report.is_object() && vec.report.is_object());
  EXPECT_EQ(scalar.report.value("status", ""), "ok") << scalar.report.dump(2).substr(0, 3000);
  EXPECT_EQ(vec.report.value("status", ""), "ok") << vec.report.dump(2).substr(0, 3000);

  // Raw loads and stores are in the trace (Chrome trace events are named after the record's API).
  EXPECT_NE(scalar.traceJson.find("\"raw GM read\""), std::string::npos) << "no raw GM read in the trace";
  EXPECT_NE(scalar.traceJson.find("\"raw GM write\""), std::string::npos) << "no raw GM write in the trace";
  EXPECT_EQ(vec.traceJson.find("\"raw GM"), std::string::npos) << "the API-only kernel made raw accesses";

  // Every element: 2 loads + 1 store, 8 blocks x 2048 elements (folded records count `times`).
  std::uint64_t calls = 0;
  for (const auto& l : scalar.report["profile"]["lines"]) calls += l.value("calls", 0ull);
  EXPECT_GE(calls, 3u * 8u * 2048u);

  const double cs = totalCycles(scalar.report), cv = totalCycles(vec.report);
  ASSERT_GT(cv, 0);
  EXPECT_GT(cs, 5.0 * cv) << "scalar add " << cs << " cycles vs vector add " << cv;
  std::printf("[ raw ] scalar add %.0f cycles, vector add %.0f cycles (%.1fx)\n", cs, cv, cs / cv);
  if (!::testing::Test::HasFailure()) {
    std::error_code ec;
    fs::remove_all(scratch, ec);
  }
}

namespace {
// "kwb-sim raw accesses: block B emulated E single-stepped S" lines (KWB_SIM_RAW_STATS=1), summed.
std::pair<std::uint64_t, std::uint64_t> rawStats(const std::string& output, int& blocks) {
  static const std::regex re("kwb-sim raw accesses: block [0-9]+ emulated ([0-9]+) single-stepped ([0-9]+)");
  std::uint64_t fast = 0, slow = 0;
  blocks = 0;
  for (auto it = std::sregex_iterator(output.begin(), output.end(), re); it != std::sregex_iterator(); ++it) {
    fast += std::stoull((*it)[1]);
    slow += std::stoull((*it)[2]);
    ++blocks;
  }
  return {fast, slow};
}
std::uint64_t rawCalls(const nlohmann::json& report) {
  std::uint64_t calls = 0;
  if (report.is_object() && report.contains("profile"))
    for (const auto& l : report["profile"]["lines"]) calls += l.value("calls", 0ull);
  return calls;
}
}  // namespace

// The handler's fast path (instructions emulated on the runtime alias, X86Decode) against the single-
// step path (KWB_SIM_RAW_SLOW=1): raw loops over int32, float, uint8, half, int8/int16 (sign-extending),
// int64, double, constant stores, through GM and UB pointers, compute the right results either way
// (the program checks every element), nearly every access takes the fast path, and both runs record
// exactly the same accesses (same calls, same cycles, same trace).
TEST(EmulatorRawAccess, FastPathComputesAndRecordsExactlyAsSingleStepping) {
  const fs::path scratch = fs::temp_directory_path() /
                           ("kwb_rawfast_" + std::to_string(::getpid()) + "_" +
                            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::create_directories(scratch);
  const RawRun fast = buildAndRun("scalar_types", scratch, "_fast", {{"KWB_SIM_RAW_STATS", "1"}});
  const RawRun slow =
      buildAndRun("scalar_types", scratch, "_slow", {{"KWB_SIM_RAW_STATS", "1"}, {"KWB_SIM_RAW_SLOW", "1"}});
  ASSERT_TRUE(fast.report.is_object() && slow.report.is_object());
  EXPECT_EQ(fast.report.value("status", ""), "ok") << fast.report.dump(2).substr(0, 3000);
  EXPECT_EQ(slow.report.value("status", ""), "ok") << slow.report.dump(2).substr(0, 3000);

  int fastBlocks = 0, slowBlocks = 0;
  const auto [fEmu, fStep] = rawStats(fast.output, fastBlocks);
  const auto [sEmu, sStep] = rawStats(slow.output, slowBlocks);
  EXPECT_EQ(fastBlocks, 2) << fast.output.substr(0, 2000);
  EXPECT_EQ(slowBlocks, 2) << slow.output.substr(0, 2000);
  EXPECT_EQ(sEmu, 0u) << "KWB_SIM_RAW_SLOW=1 still emulated";
  EXPECT_EQ(fEmu + fStep, sStep) << "the two paths saw a different number of faulting accesses";
  // Per block: 6 arrays x 1000 elements x 3 accesses, 2 x 1000 sign-extending loads, 2 x 1000 UB
  // stores and 2 x 1000 UB loads, 1000 + 500 constant stores, a few scalar stores.
  EXPECT_GE(sEmu + sStep, 2u * (18000u + 2000u + 4000u + 1500u));
  EXPECT_GE(fEmu, 99 * (fEmu + fStep) / 100) << "emulated " << fEmu << ", single-stepped " << fStep;

  const std::uint64_t fCalls = rawCalls(fast.report), sCalls = rawCalls(slow.report);
  EXPECT_EQ(fCalls, sCalls);
  EXPECT_GE(fCalls, sStep);
  EXPECT_EQ(totalCycles(fast.report), totalCycles(slow.report));
  EXPECT_FALSE(fast.traceJson.empty());
  EXPECT_TRUE(fast.traceJson == slow.traceJson) << "the traces differ";
  std::printf("[ raw ] %llu accesses: %llu emulated, %llu single-stepped\n",
              static_cast<unsigned long long>(fEmu + fStep), static_cast<unsigned long long>(fEmu),
              static_cast<unsigned long long>(fStep));
  if (!::testing::Test::HasFailure()) {
    std::error_code ec;
    fs::remove_all(scratch, ec);
  }
}
