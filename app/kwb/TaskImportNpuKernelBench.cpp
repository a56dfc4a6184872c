// SPDX-License-Identifier: MIT
#include "app/kwb/TaskImportNpuKernelBench.h"

#include <iostream>

#include "app/kwb/Cli.h"
#include "core/agent/NpuKernelBenchImport.h"

namespace kwb::cli {

int importNpuKernelBenchTaskCommand(const std::string& dir, const NpuKernelBenchCliOptions& options,
                                    std::optional<std::size_t> dtypeColumn, const std::string& soc,
                                    const std::string& outArg) {
  NpuKernelBenchImportOptions o;
  o.answer = options.answer;
  o.maxCases = options.maxCases;
  o.dtypeColumn = dtypeColumn;
  o.soc = soc;
  const NpuKernelBenchImport r = importNpuKernelBenchTask(dir, o);
  for (const auto& n : r.notes) std::cerr << "note: " << n << "\n";
  if (!r.ok()) {
    for (const auto& e : r.project.errors) std::cerr << e.format() << "\n";
    return BadInput;
  }
  for (const auto& w : r.project.warnings) std::cerr << w.format() << "\n";
  if (const std::string failed = writeNpuKernelBenchTask(r, outArg); !failed.empty()) {
    std::cerr << failed << "\n";
    return failed.find("already holds") != std::string::npos ? BadInput : InternalError;
  }
  const auto& t = r.project.task;
  std::cout << outArg << ": task '" << t.name << "' (" << t.inputs.size() << " inputs, " << t.outputs.size()
            << " outputs, " << t.cases.size() << " cases from test_cases.csv) with a python3-torch reference "
            << "(reference.py) and answer/" << options.answer << " as the imported candidate\n";
  return Success;
}

}  // namespace kwb::cli
