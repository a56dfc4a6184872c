// SPDX-License-Identifier: MIT
#pragma once
// `ascend-cann`: the real CANN toolchain (8.x ascend-toolkit or the CANN 9 layout, found by
// detectCann). Generates the kernel-launch program the official samples use and builds it with
// bisheng directly (`bisheng -xcce --npu-arch=dav-2201 ...`; the equivalent CMake project with
// ascendc_library is written beside it for people), in one of three run modes:
//   npu  ACL host harness, linked with ascendcl + runtime, runs on the device (ran_on "npu");
//        profiled with `msprof op`;
//   sim  the same program linked with runtime_camodel from tools/simulator/<SoC>/lib (ran_on
//        "cann-sim"); profiled with `msprof op simulator`;
//   cpu  the CPU-mode harness (ICPU_RUN_KF) built with g++ against tools/tikicpulib (ran_on "cann-cpu").
// Default mode: npu when a device is visible (/dev/davinci*), else sim when the SoC's simulator is
// installed, else cpu. ran_on always names the mode that actually ran; nothing claims a device run
// that did not happen. Runtime failures are parsed with RuntimeErrorParser, compiler output with
// CompilerDiagnosticParser. Every run happens inside the sandbox.

#include <optional>

#include "core/toolchain/Backend.h"
#include "core/toolchain/CannInstallation.h"

namespace kwb {

class CannBackend : public Backend {
 public:
  // `env` finds the toolkit (tests pass a stand-in root through it).
  explicit CannBackend(BackendOptions options, EnvLookup env = processEnvironment());
  std::string name() const override { return "ascend-cann"; }
  std::string soc() const override { return options_.soc; }
  RanOn ranOn() const override;
  std::vector<Diagnostic> prepare(const Task& task, const std::string& candidateSource,
                                  const std::filesystem::path& workDir,
                                  const std::map<std::string, std::string>& companions = {}) override;
  CompileResult compile() override;
  CaseRunResult run(const verify::PreparedCase& prepared, const CaseFiles& files) override;
  std::map<std::string, std::string> artifacts() const override;

  const std::string& mode() const { return mode_; }
  const std::optional<CannInstallation>& installation() const { return cann_; }

 private:
  BackendOptions options_;
  EnvLookup env_;
  std::optional<CannInstallation> cann_;
  std::string mode_;
  const Task* task_ = nullptr;
  SocInfo soc_;
  std::filesystem::path workDir_, kernelFile_, harnessFile_, binary_;
};

// dav-2201 for Ascend910B*/Ascend910_93*, dav-2002 for Ascend310P*, dav-3002 for Ascend310B*;
// empty for SoCs bisheng has no arch for here.
std::string npuArchFor(const std::string& soc);

// The ACL host harness (docs/ascend-notes.md §3.3): aclInit, SetDevice, CreateStream, aclrtMalloc per tensor,
// copies in, kwb_tiling, launch with <<<blockDim, nullptr, stream>>>, synchronise, copies out, CHECK_ACL
// printing `file:line aclError:<code>` as the samples do. Includes kernel.cpp.
std::string generateAclHarness(const Task& task);

// CMakeLists.txt of the equivalent official kernel-launch project (ascendc_library for npu/sim,
// tikicpulib for cpu), written as an artifact.
std::string generateCannCMake(const Task& task, const std::string& soc);

}  // namespace kwb
