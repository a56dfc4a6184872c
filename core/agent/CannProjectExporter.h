// SPDX-License-Identifier: MIT
#pragma once
// Exports an accepted iteration as a CANN kernel-launch project in the layout of the official
// `kernel_launch` samples, which builds with CANN unchanged:
//
//   <dir>/CMakeLists.txt          RUN_MODE cpu|sim|npu, SOC_VERSION, ASCEND_CANN_PACKAGE_PATH; sim/npu build
//   the
//                                 kernel with ascendc_library(ascendc_kernels_${RUN_MODE} SHARED <name>.cpp)
//   <dir>/cmake/cpu_lib.cmake     tikicpulib::${SOC_VERSION} (cpu)
//   <dir>/<name>.cpp              the candidate, byte for byte (kernel half; KWB_COMPILE_TILING=0 there)
//   <dir>/tiling_host.cpp         the same file's tiling half for the host (KWB_COMPILE_KERNEL=0)
//   <dir>/kwb_tiling.h            the contract header
//   <dir>/main.cpp                host: ICPU_RUN_KF in cpu mode; aclInit/aclrtMalloc/ACLRT_LAUNCH_KERNEL
//   otherwise <dir>/data_utils.h            ReadFile/WriteFile/CHECK_ACL as the samples have <dir>/run.sh
//   bash run.sh -r cpu|sim|npu -v <SoC> [-i CANN path] [-b Debug|Release] <dir>/scripts/gen_data.py inputs
//   for the exported case + the golden from the task's reference <dir>/scripts/verify_result.py  the task's
//   tolerance rule (atol AND rtol, mismatch ratio) <dir>/reference/              reference.cpp +
//   kwb_reference.h (the double-precision golden) <dir>/README.md               what was exported, from which
//   session/iteration, how to run it
//
// The shapes are those of one verification case of the task (the first unless options say otherwise).

#include <filesystem>
#include <string>

#include "core/model/Iteration.h"
#include "core/model/Task.h"

namespace kwb {

struct CannExportOptions {
  std::string soc;                   // default: the task's
  std::string caseName;              // default: the task's first case
  std::filesystem::path includeDir;  // kwb_tiling.h + kwb_reference.h; default: the task's include folder
};

// Writes the project; exportDir must not exist or be empty. Returns exportDir. Throws
// std::invalid_argument (no candidate, unknown case, non-empty folder) or std::runtime_error (I/O).
std::filesystem::path exportCannProject(const Task& task, const Iteration& iteration,
                                        const std::filesystem::path& exportDir,
                                        const CannExportOptions& options = {});

// The parts of the kernel-launch CMakeLists.txt that differ between the projects kwb writes (an exported
// candidate; the calibration programs of `kwb calibrate emit`, core/calibrate/CalibrationProject.h).
struct CannCMakeSpec {
  std::string title;              // the leading comment (may span lines, each after the first "# "-led)
  std::string commonDefinitions;  // add_compile_definitions() for every target; "" for none
  std::string commonDefinitionsComment;
  std::string kernelFile;  // <name>.cpp in the project folder
  std::string kernelComment;
  std::string kernelDefinitions;  // ascendc_compile_definitions of the kernel library
  std::string kernelDefinitionsComment;
  std::string hostComment;
  std::string hostExtraSource;  // a second host source next to main.cpp; "" for none
  std::string hostExtraSourceDefinitions;
};
std::string cannProjectCMake(const CannCMakeSpec& spec, const std::string& soc);

// The generated texts (exposed for tests).
std::string cannProjectCMake(const Task& task, const std::string& soc);
std::string cannCpuLibCMake();
std::string cannHostMain(const Task& task, const VerificationCase& c, const std::string& soc);
std::string cannRunScript(const Task& task, const std::string& soc);
std::string cannGenDataScript(const Task& task, const VerificationCase& c);
std::string cannVerifyScript(const Task& task);

}  // namespace kwb
