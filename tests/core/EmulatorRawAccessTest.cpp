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
RawRun buildAndRun(const std::string& name, const fs::path& scratch) {
  RawRun out;
  const fs::path app = scratch / name, report = scratch / (name + ".json"), prof = scratch / (name + "_prof");
  fs::create_directories(prof);
  kwb::ProcessSpec build;
  build.argv = {KWB_KWB_EXE, "sim", "build", "-o", app.string(), (kRawDir / (name + ".cpp")).string()};
  build.timeout = std::chrono::minutes(5);
  const kwb::ProcessResult b = kwb::ProcessRunner().run(build);
  EXPECT_TRUE(b.ok()) << b.describe() << "\n" << b.stderrText.substr(0, 4000);
  if (!b.ok()) return out;
  kwb::ProcessSpec run;
  run.argv = {app.string()};
  run.workingDirectory = scratch.string();
  run.environment["KWB_SIM_REPORT"] = report.string();
  run.environment["KWB_SIM_PROFILE_DIR"] = prof.string();
  run.timeout = std::chrono::minutes(2);
  const kwb::ProcessResult r = kwb::ProcessRunner().run(run);
  out.output = r.stdoutText + r.stderrText;
  EXPECT_TRUE(r.ok()) << name << ": " << r.describe() << "\n" << out.output.substr(0, 4000);
  EXPECT_NE(r.stdoutText.find("PASS"), std::string::npos) << name << " computed a wrong result: " << out.output;
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
