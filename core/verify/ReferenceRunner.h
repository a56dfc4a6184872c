#pragma once
// Builds a task's reference.cpp (plain C++17 with resources/tasks/include/kwb_reference.h and
// -DKWB_REFERENCE_MAIN) once per content hash, and runs it on one case: it reads the inputs the
// verifier wrote and writes every output as raw float64. The program runs in the sandbox like any
// other code that is not part of the workbench.

#include <filesystem>
#include <string>
#include <vector>

#include "core/model/Task.h"
#include "core/verify/Verification.h"

namespace kwb::verify {

// Folder holding kwb_reference.h and kwb_tiling.h: $KWB_TASK_INCLUDE_DIR, the task folder's ../include
// when it has them, else the source tree's resources/tasks/include.
std::filesystem::path taskIncludeDir(const Task& task);

struct ReferenceBuild {
  bool ok = false;
  std::filesystem::path binary;
  bool cached = false;
  std::string log;      // compiler output when it failed
  std::string command;
};

struct ReferenceOutput {
  bool ok = false;
  std::string error;    // why not (with the re-runnable command)
  std::vector<std::vector<double>> outputs;  // in task output order
};

class ReferenceRunner {
 public:
  explicit ReferenceRunner(std::filesystem::path cacheDir);
  ReferenceBuild build(const Task& task) const;
  // Writes caseDir/reference.manifest naming the input files (already written) and reads back the
  // outputs. `inputFiles` are in prepared.inputs order.
  ReferenceOutput run(const ReferenceBuild& build, const PreparedCase& prepared,
                      const std::vector<std::filesystem::path>& inputFiles, const std::filesystem::path& caseDir) const;

 private:
  std::filesystem::path cacheDir_;
};

}  // namespace kwb::verify
