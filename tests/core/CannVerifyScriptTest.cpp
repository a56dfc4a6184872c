// SPDX-License-Identifier: MIT
// The exported project's scripts/verify_result.py applies the workbench's pass rule (near misses
// only within the budget, atol capped by the output's size): run with the system python3 and numpy on
// fabricated outputs of add_custom.

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include "core/agent/CannProjectExporter.h"
#include "core/model/Task.h"
#include "core/process/ProcessRunner.h"
#include "core/verify/ElementCodec.h"

using namespace kwb;
namespace fs = std::filesystem;

namespace {

bool haveNumpy() {
  ProcessSpec s;
  s.argv = {"/usr/bin/python3", "-c", "import numpy"};
  return ProcessRunner().run(s).ok();
}

class CannVerifyScript : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!haveNumpy()) GTEST_SKIP() << "/usr/bin/python3 with numpy is not installed here";
    dir_ = fs::temp_directory_path() / ("kwb-verify-script-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "scripts");
    fs::create_directories(dir_ / "output");
    task_ = loadTaskDir(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "add_custom");
    std::ofstream(dir_ / "scripts" / "verify_result.py") << cannVerifyScript(task_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // Writes golden (float64) and output (float16) and runs the script: true when it says the result passes.
  bool verdict(const std::vector<double>& golden, const std::vector<double>& actual) {
    {
      std::ofstream g(dir_ / "output" / "golden_z.bin", std::ios::binary);
      g.write(reinterpret_cast<const char*>(golden.data()),
              static_cast<std::streamsize>(golden.size() * sizeof(double)));
    }
    {
      std::ofstream o(dir_ / "output" / "output_z.bin", std::ios::binary);
      for (double v : actual) {
        const std::uint16_t h = verify::doubleToHalfBits(v);
        o.write(reinterpret_cast<const char*>(&h), 2);
      }
    }
    ProcessSpec s;
    s.argv = {"/usr/bin/python3", (dir_ / "scripts" / "verify_result.py").string()};
    const auto r = ProcessRunner().run(s);
    output_ = r.stdoutText + r.stderrText;
    return r.ok();
  }
  fs::path dir_;
  Task task_;
  std::string output_;
};

}  // namespace

TEST_F(CannVerifyScript, ExactAnswerPasses) {
  std::vector<double> g(4096);
  for (std::size_t k = 0; k < g.size(); ++k) g[k] = verify::representable(DType::Float16, 1.0 + k * 0.01);
  EXPECT_TRUE(verdict(g, g)) << output_;
}

TEST_F(CannVerifyScript, AFewGrosslyWrongElementsFailWhateverTheBudget) {
  std::vector<double> g(4096, 2.0), a = g;
  for (std::size_t k = 0; k < a.size(); k += 1024) a[k] = 1000.0;  // 4 of 4096 < the 1e-3 budget
  EXPECT_FALSE(verdict(g, a)) << output_;
}

TEST_F(CannVerifyScript, TinyOutputsAreCheckedAgainstTheirOwnSize) {
  // Every |e| is far below atol (1e-5): an output of zeros would be "inside atol" under the old rule.
  std::vector<double> g(4096), zeros(4096, 0.0);
  for (std::size_t k = 0; k < g.size(); ++k) g[k] = verify::representable(DType::Float16, 1e-6 * (1 + k % 7));
  EXPECT_FALSE(verdict(g, zeros)) << output_;
  EXPECT_TRUE(verdict(g, g)) << output_;
}
