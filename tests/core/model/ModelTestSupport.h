// SPDX-License-Identifier: MIT
#pragma once
// Builders for model and store tests: a small valid task, realistic iterations, a temporary folder.

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/model/Session.h"
#include "core/model/Time.h"

namespace kwb::test {

// Whole-file helpers for tests that write and inspect session folders by hand.
inline void writeText(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

inline std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline Task exampleTask() {
  Task t;
  t.name = "leaky_relu";
  t.description = "z = x > 0 ? x : alpha * x";
  t.category = "activation";
  t.inputs = {TensorDecl{"x", DType::Float16, "ND"}};
  t.outputs = {TensorDecl{"z", DType::Float16, "ND"}};
  t.attrs = {AttrDecl{"alpha", AttrType::Float, nlohmann::json(0.01)}};
  VerificationCase aligned{"aligned", {{"x", {8, 2048}}, {"z", {8, 2048}}}, {}, std::nullopt, {}};
  VerificationCase tail{"tail",
                        {{"x", {16397}}, {"z", {16397}}},
                        {{"alpha", 0.2}},
                        ValueHint{Distribution::WithNegatives, -5.0, 5.0},
                        {}};
  t.cases = {aligned, tail};
  t.tolerances[DType::Float16] = Tolerance{1e-4, 2e-3, 1e-3};
  t.blockDim = 8;
  t.baseline = Baseline{12.5, "hand-written reference, emulator cost model"};
  return t;
}

inline std::string kernelSource(int id) {
  return "// candidate " + std::to_string(id) +
         "\n#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void leaky_relu(GM_ADDR x, "
         "GM_ADDR z,"
         " GM_ADDR workspace, GM_ADDR tiling) {}\n";
}

inline Iteration exampleIteration(int id, std::optional<int> parent = std::nullopt) {
  Iteration it;
  it.id = id;
  it.parentId = parent;
  it.origin = Origin::Agent;
  it.state = IterationState::Done;
  it.verdict = Verdict::WrongAnswer;
  it.createdAt = "2025-03-01T12:00:00.000Z";
  it.updatedAt = "2025-03-01T12:00:05.250Z";
  it.finishedAt = "2025-03-01T12:00:05.250Z";
  it.usage = LlmUsage{1200, 800, "qwen2.5-coder", "openai", 5120.0};
  it.candidate.origin = Origin::Agent;
  it.candidate.files["kernel.cpp"] = kernelSource(id);
  it.candidate.files["tiling.h"] = "struct TilingData { uint32_t total; };\n";
  CompileResult c;
  c.ok = true;
  c.log = "ok\n";
  c.durationMs = 812.5;
  c.commandLine = "kwb sim build -o app kernel.cpp main.cpp";
  it.compile = c;
  RunResult r;
  r.status = RunStatus::Ok;
  r.backend = "ascend-sim";
  r.ranOn = RanOn::Emulator;
  r.durationMs = 40;
  r.exitCode = 0;
  it.run = r;
  VerifyReport v;
  v.verdict = Verdict::WrongAnswer;
  v.seed = 0xfeedfacecafebeefULL;
  CaseResult cr;
  cr.caseName = "tail";
  cr.tensor = "z";
  cr.elements = 16397;
  cr.mismatches = 13;
  cr.unwritten = 13;
  cr.maxAbsError = std::numeric_limits<double>::infinity();
  cr.maxRelError = std::numeric_limits<double>::quiet_NaN();
  cr.firstMismatches = {{16384, 0.5, std::numeric_limits<double>::quiet_NaN()}};
  cr.pattern = "tail-tile";
  v.cases = {cr};
  it.verify = v;
  it.hint = "use DataCopyPad for the tail";
  return it;
}

inline Session exampleSession() {
  SessionSettings settings;
  settings.provider = "openai";
  settings.model = "qwen2.5-coder";
  settings.baseUrl = "http://localhost:8000/v1";
  settings.limits.maxIterations = 20;
  Session s = makeSession(exampleTask(), "resources/tasks/leaky_relu", settings);
  return s;
}

// A fresh directory under the system temp dir, removed on destruction.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("kwb-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& p) const { return path_ / p; }

 private:
  std::filesystem::path path_;
};

}  // namespace kwb::test
