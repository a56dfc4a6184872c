// SPDX-License-Identifier: MIT
#pragma once
// The ascend-cann backend's command lines and profile reading as pure functions, shared by the local
// backend (CannBackend) and the one that builds and runs on a remote host over SSH
// (core/remote/RemoteCannBackend.h). Paths are POSIX paths on the machine that runs the command.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/Diagnostic.h"
#include "core/model/Task.h"
#include "core/toolchain/SocInfo.h"

namespace kwb {

struct CannToolPaths {
  std::string root;                       // the toolkit (ASCEND_TOOLKIT_HOME)
  std::optional<std::string> bisheng;     // compiler/ccec_compiler/bin/bisheng
  std::optional<std::string> msprof;      // tools/profiler/bin/msprof
  std::optional<std::string> tikicpulib;  // tools/tikicpulib/lib
};

// The build of the generated program in `workDir` (kernel.cpp + harness_acl.cpp, or harness_main.cpp in
// cpu mode) into `binary`: bisheng -xcce for npu/sim, g++ against tikicpulib for cpu.
std::vector<std::string> cannCompileArgv(const std::string& mode, const CannToolPaths& tools,
                                         const std::string& soc, const std::string& npuArch,
                                         const std::string& workDir, const std::string& binary);

// LD_LIBRARY_PATH of a run in `mode`.
std::string cannLibraryPath(const std::string& mode, const CannToolPaths& tools, const std::string& soc);

// The kernel run: under `msprof op` (npu) or `msprof op simulator` (sim) writing to `profileDir` when
// msprof exists, else the program alone.
std::vector<std::string> cannKernelRunArgv(const std::string& mode, const CannToolPaths& tools,
                                           const std::string& soc, const std::string& profileDir,
                                           const std::string& binary, const std::string& manifest);

// The profile of a run from msprof's OpBasicInfo.csv and PipeUtilization.csv texts (hostile input,
// parsed by MsprofParser; empty text = file absent). A parse failure is recorded as "parse_error".
nlohmann::json cannProfileFromCsv(const std::string& mode, const std::string& ranOn,
                                  const std::string& outputDir, const std::string& opBasicInfoCsv,
                                  const std::string& pipeUtilizationCsv);

// The generated kernel-launch workspace in `workDir`: kernel.cpp and the candidate's companions,
// include/kwb_tiling.h, harness_main.cpp (cpu), harness_acl.cpp (npu, sim) and the equivalent
// CMakeLists.txt. Checks first what the toolchain cannot build (the operator-project form, a SoC
// without an --npu-arch, a missing bisheng or tikicpulib) and returns those as diagnostics.
struct CannWorkspace {
  std::filesystem::path workDir;  // absolute
  SocInfo soc;
};
std::vector<Diagnostic> prepareCannWorkspace(const Task& task, const std::string& candidateSource,
                                             const std::map<std::string, std::string>& companions,
                                             const std::filesystem::path& workDir, const std::string& soc,
                                             const std::string& mode, const CannToolPaths& tools,
                                             CannWorkspace& out);

}  // namespace kwb
