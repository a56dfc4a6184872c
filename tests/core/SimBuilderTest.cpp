// SPDX-License-Identifier: MIT
// kwb sim build: g++ diagnostics parsing, CLI contract (exit codes, --json) and one end-to-end run of the
// smoke add_custom program with its report.

#include "core/emulator/SimBuilder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

#include "core/process/ProcessRunner.h"

namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("kwb_simbuild_" + name + "_" + std::to_string(::getpid()));
  fs::create_directories(p);
  return p;
}

kwb::ProcessResult kwbRun(const std::vector<std::string>& args,
                          const std::map<std::string, std::string>& env = {}) {
  kwb::ProcessSpec spec;
  spec.argv = {KWB_KWB_EXE};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.environment = env;
  spec.timeout = std::chrono::minutes(5);
  return kwb::ProcessRunner().run(spec);
}

}  // namespace

TEST(SimBuilderDiagnostics, UnsupportedApiIsAttributedToTheUsersLine) {
  const std::string inc = "/x/core/emulator/include";
  const std::string out =
      "/x/core/emulator/include/kwb_sim/unsupported.h: In instantiation of 'void AscendC::Gather(KwbA&& "
      "...)':\n"
      "/src/k.cpp:35:11:   required from here\n"
      "/x/core/emulator/include/kwb_sim/unsupported.h:30:1: error: static assertion failed: kwb-sim: "
      "unsupported-api: Gather is not implemented by the kwb emulator\n";
  const auto d = kwb::parseGccDiagnostics(out, inc);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].category, "unsupported-api");
  EXPECT_EQ(d[0].file, "/src/k.cpp");
  EXPECT_EQ(d[0].line, 35);
  EXPECT_EQ(d[0].column, 11);
  ASSERT_TRUE(d[0].api.has_value());
  EXPECT_EQ(*d[0].api, "Gather");
}

TEST(SimBuilderDiagnostics, PlainErrorsAreCompileErrorsAndLinkErrorsAreNamed) {
  const auto d = kwb::parseGccDiagnostics(
      "/src/k.cpp:3:5: error: 'foo' was not declared in this scope\n"
      "/usr/bin/ld: k.o: in function `main':\nk.cpp:(.text+0x5): undefined reference to `bar()'\n",
      "/x/include");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].category, "compile-error");
  EXPECT_EQ(d[0].line, 3);
  EXPECT_EQ(d[1].category, "link-error");
}

// Real g++ output (tests/fixtures/compiler): the emulator's header rejects Duplicate on int8_t.
TEST(SimBuilderDiagnostics, RealEmulatorRejectionIsAtTheUsersCallAndFromTheEmulator) {
  std::ifstream in(std::string(KWB_FIXTURES_DIR) + "/compiler/gcc_kwb_sim_emulator_dtype.txt");
  std::stringstream text;
  text << in.rdbuf();
  const auto d = kwb::parseGccDiagnostics(text.str(), "emulator/include/");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].source, "emulator");
  EXPECT_EQ(d[0].category, "unsupported-dtype");
  EXPECT_EQ(d[0].api, "Duplicate");
  EXPECT_EQ(d[0].file, "src/unsupported_dtype.cpp");
  EXPECT_EQ(d[0].line, 21);
  EXPECT_EQ(d[0].column, 14);
}

// Issue 15 item 4: the candidate reads the API it included, not the emulator's internals.
TEST(SimBuilderDiagnostics, MessagesAndNotesNameNoEmulatorInternals) {
  std::ifstream in(std::string(KWB_FIXTURES_DIR) + "/compiler/gcc_kwb_sim_emulator_dtype.txt");
  std::stringstream text;
  text << in.rdbuf();
  const auto d = kwb::parseGccDiagnostics(text.str(), "emulator/include/");
  ASSERT_EQ(d.size(), 1u);
  std::string all = d[0].message + "\n" + d[0].file + "\n";
  for (const auto& n : d[0].notes) all += n + "\n";
  for (const char* internal : {"kwb_sim", "KWB_SIM", "kwb-sim", "emulator/include", "SrcLoc", "kwbOk_"})
    EXPECT_EQ(all.find(internal), std::string::npos) << internal << " in:\n" << all;
  EXPECT_NE(d[0].message.find("Duplicate does not support int8_t"), std::string::npos) << d[0].message;
}

TEST(SimBuildCli, UnknownSocAndMissingFileAreBadInput) {
  const auto r1 = kwbRun({"sim", "build", "-o", "/tmp/never", "--soc", "Ascend999", "x.cpp"});
  EXPECT_EQ(r1.exitCode, 2) << r1.stderrText;
  const auto r2 = kwbRun({"sim", "build", "--json", "-o", "/tmp/never", "/nonexistent/k.cpp"});
  EXPECT_EQ(r2.exitCode, 2) << r2.stdoutText;
  const auto j = nlohmann::json::parse(r2.stdoutText, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r2.stdoutText;
  EXPECT_EQ(j.value("ok", true), false);
}

TEST(SimBuildCli, AddCustomBuildsRunsCleanAndReports) {
  const fs::path dir = fs::path(KWB_SOURCE_DIR) / "tests/emulator/smoke/add_custom";
  const fs::path work = scratch("add_custom");
  const fs::path app = work / "app";
  const auto build = kwbRun({"sim", "build", "--json", "-o", app.string(), (dir / "add_custom.cpp").string(),
                             (dir / "main.cpp").string()});
  ASSERT_EQ(build.exitCode, 0) << build.stdoutText << build.stderrText;
  const auto bj = nlohmann::json::parse(build.stdoutText, nullptr, false);
  ASSERT_FALSE(bj.is_discarded());
  EXPECT_TRUE(bj.value("ok", false));

  kwb::ProcessSpec run;
  run.argv = {app.string()};
  run.environment["KWB_SIM_REPORT"] = (work / "report.json").string();
  run.timeout = std::chrono::minutes(2);
  const auto rr = kwb::ProcessRunner().run(run);
  EXPECT_TRUE(rr.ok()) << rr.describe() << rr.stdoutText << rr.stderrText;
  EXPECT_NE(rr.stdoutText.find("PASS"), std::string::npos);
  std::ifstream in(work / "report.json");
  std::stringstream ss;
  ss << in.rdbuf();
  const auto j = nlohmann::json::parse(ss.str(), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << ss.str();
  EXPECT_EQ(j.value("status", ""), "ok");
  EXPECT_EQ(j.value("blocks", 0), 8);
  EXPECT_TRUE(j.at("diagnostics").empty()) << j.dump(2);
  EXPECT_TRUE(j.contains("profile"));
  // The report's diagnostics use the shared Diagnostic JSON (readable by kwb::from_json).
  for (const auto& d : j.at("diagnostics")) EXPECT_NO_THROW(d.get<kwb::Diagnostic>());
  std::error_code ec;
  fs::remove_all(work, ec);
}

// The SoC file is compiled into the program and the object cached; a calibrated (edited) file must reach
// the next build, not an object cached from the file's earlier content (docs/calibration.md).
TEST(SimBuildCli, EditedSocFileIsNotServedFromTheCache) {
  const fs::path dir = fs::path(KWB_SOURCE_DIR) / "tests/emulator/smoke/add_custom";
  const fs::path work = scratch("soc_edit");
  const fs::path socs = work / "soc";
  fs::create_directories(socs);
  fs::copy_file(fs::path(KWB_SOURCE_DIR) / "resources/soc/Ascend910B1.json", socs / "Ascend910B1.json");
  const auto totalUs = [&](const std::string& tag) {
    const fs::path app = work / ("app_" + tag);
    const auto build = kwbRun({"sim", "build", "--soc", "Ascend910B1", "-o", app.string(),
                               (dir / "add_custom.cpp").string(), (dir / "main.cpp").string()},
                              {{"KWB_SIM_SOC_DIR", socs.string()}});
    EXPECT_EQ(build.exitCode, 0) << build.stdoutText << build.stderrText;
    kwb::ProcessSpec run;
    run.argv = {app.string()};
    run.environment["KWB_SIM_REPORT"] = (work / ("report_" + tag + ".json")).string();
    run.timeout = std::chrono::minutes(2);
    EXPECT_TRUE(kwb::ProcessRunner().run(run).ok());
    std::ifstream in(work / ("report_" + tag + ".json"));
    std::stringstream ss;
    ss << in.rdbuf();
    const auto j = nlohmann::json::parse(ss.str(), nullptr, false);
    return j.is_discarded() ? -1.0 : j["profile"].value("total_us", -1.0);
  };
  const double before = totalUs("before");
  auto soc = nlohmann::json::parse(std::ifstream(socs / "Ascend910B1.json"));
  const double overhead = soc["launch"]["task_overhead_cycles"]["value"].get<double>();
  soc["launch"]["task_overhead_cycles"]["value"] = overhead + 185000;  // +100 us at 1850 MHz
  std::ofstream(socs / "Ascend910B1.json") << soc.dump(2);
  const double after = totalUs("after");
  ASSERT_GT(before, 0);
  EXPECT_NEAR(after - before, 100.0, 0.01);
  std::error_code ec;
  fs::remove_all(work, ec);
}

TEST(SimBuildCli, NoAutoSyncFlagsTheScalarReadAfterAVectorWrite) {
  const fs::path work = scratch("noautosync");
  const fs::path src = work / "k.cpp";
  {
    std::ofstream out(src);
    out << R"(#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> t = buf.Get<float>();
  Duplicate(t, 1.0f, 64);
  float v = t.GetValue(0);
  GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx(), 1);
  g.SetValue(0, v);
}
int main() {
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(64);
  ICPU_RUN_KF(k, 2, x);
  AscendC::GmFree(x);
  return 0;
}
)";
  }
  for (bool autoSync : {true, false}) {
    std::vector<std::string> args = {"sim", "build", "-o", (work / "app").string()};
    if (!autoSync) args.push_back("--no-auto-sync");
    args.push_back(src.string());
    const auto b = kwbRun(args);
    ASSERT_EQ(b.exitCode, 0) << b.stderrText;
    kwb::ProcessSpec run;
    run.argv = {(work / "app").string()};
    run.environment["KWB_SIM_REPORT"] = (work / "r.json").string();
    const auto rr = kwb::ProcessRunner().run(run);
    std::ifstream in(work / "r.json");
    std::stringstream ss;
    ss << in.rdbuf();
    const auto j = nlohmann::json::parse(ss.str(), nullptr, false);
    ASSERT_FALSE(j.is_discarded());
    if (autoSync) {
      EXPECT_TRUE(rr.ok()) << ss.str();
      EXPECT_EQ(j.value("status", ""), "ok") << ss.str();
    } else {
      EXPECT_FALSE(rr.ok());
      ASSERT_FALSE(j.at("diagnostics").empty()) << ss.str();
      EXPECT_EQ(j.at("diagnostics")[0].value("category", ""), "missing-sync");
      EXPECT_EQ(j.at("diagnostics")[0].value("line", 0), 10);
    }
  }
  std::error_code ec;
  fs::remove_all(work, ec);
}
