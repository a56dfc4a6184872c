// SPDX-License-Identifier: MIT
#pragma once
// Builds a task's reference.cpp (plain C++17 with resources/tasks/include/kwb_reference.h and
// -DKWB_REFERENCE_MAIN) once per content hash, and runs it on one case: it reads the inputs the
// verifier wrote and writes every output as raw float64. The compile and the program run in the
// sandbox like any other code that is not part of the workbench (core/sandbox/CompileSandbox.h).
// The cache folder must be private (preparePrivateDir) and each cached binary carries a SHA-256
// sidecar, checked when it is reused and again on the copy each case runs.
// A task whose reference is reference.py (an imported KernelBench problem) skips the compile: the
// script is cached and verified the same way and runs under torchPython() in the same sandbox
// (docs/task-format.md, "Python references").

#include <filesystem>
#include <string>
#include <vector>

#include "core/model/Task.h"
#include "core/sandbox/SandboxPolicy.h"
#include "core/verify/Verification.h"

namespace kwb::verify {

// Folder holding kwb_reference.h and kwb_tiling.h: $KWB_TASK_INCLUDE_DIR, the task folder's ../include
// when it has them, else the source tree's resources/tasks/include.
std::filesystem::path taskIncludeDir(const Task& task);

// The interpreter of Python references and KernelBench imports: $KWB_TORCH_PYTHON, else Debian's
// /usr/bin/python3 (python3-torch installs torch for that one, not for a pyenv or venv python).
std::string torchPython();
// The sandbox a torch program runs in: `scratch` its only writable folder, no network, one thread
// (torch would start one per core, past the sandbox's process limit), time for torch's import.
SandboxPolicy torchSandboxPolicy(const std::filesystem::path& scratch);
// True when `task`'s reference is a Python script (reference.py).
bool isPythonReference(const Task& task);

struct ReferenceBuild {
  bool ok = false;
  std::filesystem::path binary;  // the cache entry (never run in place: run() copies and re-verifies it)
  std::string sha256;            // digest of `binary` verified (or recorded) by build()
  bool cached = false;
  bool python = false;  // `binary` is a script for torchPython()
  std::string log;      // compiler output when it failed
  std::string command;
  std::vector<std::string> warnings;  // a cache entry or folder discarded and rebuilt
};

struct ReferenceOutput {
  bool ok = false;
  std::string error;                         // why not (with the re-runnable command)
  std::vector<std::vector<double>> outputs;  // in task output order
};

class ReferenceRunner {
 public:
  explicit ReferenceRunner(std::filesystem::path cacheDir);
  ReferenceBuild build(const Task& task) const;
  // Writes caseDir/reference.manifest naming the input files (already written) and reads back the
  // outputs. `inputFiles` are in prepared.inputs order.
  ReferenceOutput run(const ReferenceBuild& build, const PreparedCase& prepared,
                      const std::vector<std::filesystem::path>& inputFiles,
                      const std::filesystem::path& caseDir) const;

 private:
  std::filesystem::path cacheDir_;
};

}  // namespace kwb::verify
