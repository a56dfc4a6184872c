// SPDX-License-Identifier: MIT
#pragma once
// `kwb task import --from npukernelbench DIR`: an NPUKernelBench task folder (`<Op>/` with api_desc.md,
// question/, answer/<n>/ — a msopgen operator project — and validation/ holding module.py with the
// PyTorch `Model`, prepare_inputs.py with get_inputs(param)/get_init_inputs(param) and test_cases.csv,
// one case per row) becomes a task whose reference runs `Model` on python3-torch in the sandbox and
// whose first candidate is the answer (docs/task-format.md, "Importing an NPUKernelBench task").
//
// The signature (names, dtypes, attributes) is the answer's OpDef; the cases are the CSV rows whose
// tensors have the dtypes of the tested OpDef combination; the shapes, value ranges and output shapes
// come from running get_inputs(param) and Model in the sandbox, and what comes back is untrusted
// (parseNpuKernelBenchDescription). Everything that cannot be imported says which file and line.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/agent/OpProjectImport.h"
#include "core/model/Diagnostic.h"

namespace kwb {

struct NpuKernelBenchImportOptions {
  std::size_t answer = 0;                  // answer/<answer>/ is the candidate
  std::optional<std::size_t> dtypeColumn;  // the OpDef combination; empty: the first row's dtypes decide
  std::size_t maxCases = 64;               // rows imported at most, in CSV order
  std::string soc;                         // empty: the task default
};

struct NpuKernelBenchImport {
  OperatorProjectImport project;   // task (reference.py), candidate, errors, warnings
  std::string referenceSource;     // reference.py
  std::vector<std::string> notes;  // rows left out and why, upcast references: said, not errors
  std::vector<std::pair<std::string, std::string>> keptFiles;  // validation files kept beside the task
  bool ok() const { return project.ok(); }
};

NpuKernelBenchImport importNpuKernelBenchTask(const std::filesystem::path& dir,
                                              const NpuKernelBenchImportOptions& options);

// Writes task.json, reference.py, imported/ (the answer as candidate) and npukernelbench/ (the
// validation files, api_desc.md) into `out`, which must not hold a task.json. Empty: written.
std::string writeNpuKernelBenchTask(const NpuKernelBenchImport& imported, const std::filesystem::path& out);

}  // namespace kwb
