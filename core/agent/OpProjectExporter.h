// SPDX-License-Identifier: MIT
#pragma once
// Exports an accepted iteration as a msopgen custom-operator project (docs/candidate-contract.md,
// "Exporting to a CANN project"):
//
//   <dir>/op_kernel/<task>.cpp       the kernel
//   <dir>/op_host/<task>.cpp         the OpDef and TilingFunc
//   <dir>/op_host/<task>_tiling.h    the TilingData (operator-project candidates; other headers too)
//   <dir>/<task>.json                the operator description msopgen reads (input_desc, output_desc, attr)
//   <dir>/build.sh                   generates the CANN build scaffolding with `msopgen gen` from that
//                                    description (CMakePresets.json, CMakeLists.txt, cmake/, framework/,
//                                    build.sh of the installed CANN), puts op_host/ and op_kernel/ into
//                                    it and builds the custom-op package
//   <dir>/README.md                  what was exported and how to build it
//
// A candidate in the operator-project form is written unchanged at its project paths. A `kwb_tiling`
// candidate becomes op_kernel/<task>.cpp unchanged plus a generated op_host/<task>.cpp whose TilingFunc
// fills a KwbTilingInput from the gert::TilingContext and calls the candidate's kwb_tiling (with
// kwb_tiling.h next to both). The workbench does not ship copies of CANN's build scripts: build.sh makes
// them with the installed msopgen, so they always match the CANN that builds the package.

#include <filesystem>
#include <string>

#include "core/model/Iteration.h"
#include "core/model/Task.h"

namespace kwb {

struct OpProjectExportOptions {
  std::string soc;                   // default: the task's
  std::filesystem::path includeDir;  // kwb_tiling.h; default: the task's include folder
};

// Writes the project; `dir` must not exist or be empty. Returns `dir`. Throws std::invalid_argument (no
// candidate, a non-empty folder, a candidate file that would leave the project) or std::runtime_error.
std::filesystem::path exportOperatorProject(const Task& task, const Iteration& iteration,
                                            const std::filesystem::path& dir,
                                            const OpProjectExportOptions& options = {});

// The generated texts (exposed for tests).
std::string opTypeOfTask(const std::string& taskName);  // add_custom -> AddCustom
std::string msopgenOperatorJson(const Task& task);
std::string kwbTilingOpHostSource(const Task& task, const std::string& soc);
std::string msopgenBuildScript(const Task& task, const std::string& soc);

}  // namespace kwb
