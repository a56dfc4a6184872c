// SPDX-License-Identifier: MIT
// The words of the emulator's cause-first messages (docs/emulator.md, "Cause lines"): the broken corpus
// programs are built with `kwb sim build` and run; their error must name the symptom's line, the origin
// and the usual fix (EmulatorCorpusTest checks category and line).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/process/ProcessRunner.h"

namespace fs = std::filesystem;

namespace {

// The one error the program reports, after building and running tests/emulator/broken/<name>.cpp.
std::string errorMessageOf(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("kwb_cause_" + name + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  kwb::ProcessSpec build;
  build.argv = {KWB_KWB_EXE,
                "sim",
                "build",
                "-o",
                (dir / name).string(),
                (fs::path(KWB_SOURCE_DIR) / "tests" / "emulator" / "broken" / (name + ".cpp")).string()};
  build.timeout = std::chrono::minutes(5);
  const auto built = kwb::ProcessRunner().run(build);
  if (!built.ok()) return "build failed: " + built.describe() + "\n" + built.stderrText;
  kwb::ProcessSpec run;
  run.argv = {(dir / name).string()};
  run.workingDirectory = dir.string();
  run.environment["KWB_SIM_REPORT"] = (dir / "report.json").string();
  run.timeout = std::chrono::minutes(2);
  kwb::ProcessRunner().run(run);
  std::ifstream in(dir / "report.json");
  std::stringstream text;
  text << in.rdbuf();
  std::error_code ec;
  fs::remove_all(dir, ec);
  const auto report = nlohmann::json::parse(text.str(), nullptr, false);
  if (!report.is_object()) return "no report";
  std::string messages;
  for (const auto& d : report.value("diagnostics", nlohmann::json::array()))
    if (d.value("severity", "") == "error" || d.value("severity", "") == "fatal") {
      messages += d.value("message", "") + "\n";
      for (const auto& r : d.value("related", nlohmann::json::array()))
        messages += "related: " + r.value("role", "") + " @" + std::to_string(r.value("line", 0)) + "\n";
    }
  return messages;
}

TEST(EmulatorCauseMessage, MissingEnQueNamesTheCopyAndTheHangingDeQue) {
  const std::string m = errorMessageOf("queue_deque_empty");
  EXPECT_NE(m.find("nothing was EnQue'd after this DataCopy"), std::string::npos) << m;
  EXPECT_NE(m.find("the DeQue at line 25 waits forever"), std::string::npos) << m;
  EXPECT_NE(m.find("EnQue the tensor after its last write"), std::string::npos) << m;
}

TEST(EmulatorCauseMessage, LeakNamesWhereTheTensorWasTakenAndLastUsed) {
  const std::string m = errorMessageOf("queue_leak_free_missing");
  EXPECT_NE(m.find("buffer leak: the tensor from DeQue at line 27 (last used by Relu at line 29)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("FreeTensor it after its last use"), std::string::npos) << m;
  // The report of `kwb sim` programs carries the related locations too.
  EXPECT_NE(m.find("related: the DeQue that took the tensor @27"), std::string::npos) << m;
}

TEST(EmulatorCauseMessage, BufferOverrunNamesTheInitBufferThatMadeTheBuffer) {
  const std::string m = errorMessageOf("ub_out_of_bounds");
  EXPECT_NE(
      m.find("The buffer comes from InitBuffer at line 22 (1024 bytes); make it at least 2048 bytes there"),
      std::string::npos)
      << m;
}

}  // namespace

namespace {
TEST(EmulatorCauseMessage, UbOverflowNamesTheLargestBufferWhenAnotherTipsTheTotalOver) {
  const std::string m = errorMessageOf("ub_overflow_large_first");
  EXPECT_NE(m.find("the largest buffer so far is 131072 bytes, from InitBuffer at line 15"),
            std::string::npos)
      << m;
}
}  // namespace

namespace {
TEST(EmulatorCauseMessage, UndersizedBufferIsReportedAtItsInitBufferWithTheOverrunningCopy) {
  const std::string m = errorMessageOf("ub_out_of_bounds_small_buffer");
  EXPECT_NE(m.find("the InitBuffer at line 21 makes a buffer of 512 bytes, smaller than the 1024 bytes the "
                   "DataCopy at line 27 writes"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("Give this InitBuffer the tile's full length"), std::string::npos) << m;
}

TEST(EmulatorCauseMessage, OverlapIsReportedAtTheSetGlobalBufferWithBothBlocksWrites) {
  const std::string m = errorMessageOf("multicore_overlap");
  EXPECT_NE(m.find("the SetGlobalBuffer at line 19 gives the blocks overlapping GM ranges: blocks 0 and 1 "
                   "both write GM bytes"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("(DataCopy), block 1 at "), std::string::npos) << m;
  EXPECT_NE(m.find("Offset each block's range by GetBlockIdx()"), std::string::npos) << m;
}
}  // namespace
