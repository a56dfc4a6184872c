// SPDX-License-Identifier: MIT
#include "core/policy/CandidatePreprocess.h"
#include "core/toolchain/Backend.h"
#include "core/toolchain/CannBackend.h"
#include "core/toolchain/SimBackend.h"
#include "core/verify/ReferenceRunner.h"

namespace kwb {

// The emulator's view of a candidate is the reference for what a kernel may name, whichever backend
// builds it (a CANN build sees the real headers, which declare at least as much).
std::vector<std::string> Backend::preprocessFlags(const Task& task) const {
  return simPreprocessFlags(!soc().empty() ? soc() : (task.soc.empty() ? "Ascend910B1" : task.soc), "c++17",
                            true, {verify::taskIncludeDir(task).string()},
                            {"KWB_COMPILE_KERNEL=1", "KWB_COMPILE_TILING=1"});
}

std::unique_ptr<Backend> makeBackend(const std::string& name, const BackendOptions& options,
                                     std::string& error) {
  if (name == "ascend-sim") return std::make_unique<SimBackend>(options);
  if (name == "ascend-cann") return std::make_unique<CannBackend>(options);
  error = "unknown backend \"" + name + "\"; expected ascend-sim or ascend-cann";
  return nullptr;
}

}  // namespace kwb
