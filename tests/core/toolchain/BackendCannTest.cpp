// SPDX-License-Identifier: MIT
// The ascend-cann backend against a stand-in toolkit folder (tests/fixtures/cann_standin): detection,
// run-mode choice, the generated project, compiler and runtime error parsing, and ran_on honesty.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/eval/Evaluator.h"
#include "core/model/Task.h"
#include "core/toolchain/CannBackend.h"

using namespace kwb;
namespace fs = std::filesystem;

namespace {
std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
EnvLookup envWith(std::optional<std::string> toolkit) {
  return [toolkit](const std::string& name) -> std::optional<std::string> {
    if (name == "ASCEND_TOOLKIT_HOME") return toolkit;
    if (name == "HOME") return std::string(KWB_TEST_BIN_DIR) + "/no-home";
    return std::nullopt;
  };
}
Task smallAdd() {
  Task t = loadTaskDir(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "add_custom");
  t.cases.resize(1);
  return t;
}
EvalReport evalWith(const EnvLookup& env, const std::string& source, const std::string& label,
                    CannBackend** out = nullptr) {
  BackendOptions o;
  o.soc = "Ascend910B1";
  static std::unique_ptr<CannBackend> keep;
  keep = std::make_unique<CannBackend>(o, env);
  if (out) *out = keep.get();
  EvalRequest r;
  r.candidateSource = source;
  r.seed = 7;
  r.workDir = fs::path(KWB_TEST_BIN_DIR) / "cann-work" / label;
  r.cacheDir = fs::path(KWB_TEST_BIN_DIR) / "eval-cache";
  return evaluate(smallAdd(), *keep, r);
}
const std::string kExpert =
    readText(fs::path(KWB_SOURCE_DIR) / "resources/tasks/add_custom/expert_candidate.cpp");
const std::string kStandin = std::string(KWB_FIXTURES_DIR) + "/cann_standin";
}  // namespace

TEST(BackendCann, NoToolkitSaysSoAndPointsToTheEmulator) {
  const EvalReport r = evalWith(envWith(std::nullopt), kExpert, "none");
  EXPECT_NE(r.verdict, Verdict::Pass);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics.front().message.find("no CANN toolkit found"), std::string::npos);
  EXPECT_NE(r.diagnostics.front().message.find("ascend-sim"), std::string::npos);
  EXPECT_TRUE(r.runs.empty()) << "nothing may claim to have run";
}

TEST(BackendCann, StandinSimulatorModeAndGeneratedProject) {
  CannBackend* b = nullptr;
  const EvalReport r = evalWith(envWith(kStandin), kExpert, "runtime", &b);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->mode(), "sim");  // a simulator folder, no /dev/davinci: never "npu"
  EXPECT_EQ(r.ranOn, RanOn::CannSim);
  const fs::path work = fs::path(KWB_TEST_BIN_DIR) / "cann-work" / "runtime";
  EXPECT_NE(readText(work / "harness_acl.cpp").find("add_custom<<<out.blockDim, nullptr, stream>>>"),
            std::string::npos);
  EXPECT_NE(readText(work / "CMakeLists.txt").find("ascendc_library(kernels SHARED kernel.cpp)"),
            std::string::npos);
  ASSERT_TRUE(r.compile.has_value());
  EXPECT_NE(r.compile->commandLine.find("--npu-arch=dav-2201"), std::string::npos);
  // The stand-in program reproduces a captured vector-core exception.
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << nlohmann::json(r).dump(2);
  bool parsed = false;
  for (const auto& d : r.diagnostics)
    if (d.source == "runtime" && d.message.find("507035") != std::string::npos) parsed = true;
  EXPECT_TRUE(parsed) << nlohmann::json(r.diagnostics).dump(2);
  ASSERT_FALSE(r.runs.empty());
  EXPECT_EQ(r.runs[0].run.ranOn, RanOn::CannSim);
  // msprof op simulator's CSVs are parsed (MsprofParser).
  ASSERT_TRUE(r.profile.is_object()) << r.profile.dump();
  EXPECT_EQ(r.profile.value("tool", ""), "msprof op simulator");
  EXPECT_DOUBLE_EQ(r.profile.value("task_duration_us", 0.0), 12.34);
  EXPECT_EQ(r.profile["busiest_pipe"].value("pipe", ""), "mte2");
}

TEST(BackendCann, CompileErrorsPointAtTheCandidateLine) {
  std::string src = kExpert;
  const auto pos = src.find("    Add(z, x, y, n);");
  ASSERT_NE(pos, std::string::npos);
  src.insert(pos, "    KWB_STANDIN_COMPILE_ERROR;\n");
  int line = 1;
  for (std::size_t i = 0; i < pos; ++i) line += src[i] == '\n';
  const EvalReport r = evalWith(envWith(kStandin), src, "compile_error");
  ASSERT_EQ(r.verdict, Verdict::CompileError) << nlohmann::json(r).dump(2);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics.front().file, "kernel.cpp");
  EXPECT_EQ(r.diagnostics.front().line, line);
  EXPECT_EQ(r.diagnostics.front().category, "compile-error");
}

TEST(BackendCann, ArchForSocs) {
  EXPECT_EQ(npuArchFor("Ascend910B1"), "dav-2201");
  EXPECT_EQ(npuArchFor("Ascend310P3"), "dav-2002");
  EXPECT_EQ(npuArchFor("Ascend910A"), "");
}
