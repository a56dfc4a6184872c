// SPDX-License-Identifier: MIT
#pragma once
// `kwb task import --from kernelbench FILE.py`: the options it adds to `kwb task import` and the command
// (docs/task-format.md, "Importing a KernelBench problem").

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

namespace kwb::cli {

struct KernelBenchCliOptions {
  std::string from;  // "kernelbench", or empty for an operator project
  std::vector<std::string> shapes;
  std::string name;
};

void addKernelBenchImportOptions(CLI::App& import, const std::shared_ptr<KernelBenchCliOptions>& options);

// `casesFile` may be empty; `soc` empty keeps the task default.
int importKernelBenchTaskCommand(const std::string& problemFile, const std::string& casesFile,
                                 const std::string& soc, const KernelBenchCliOptions& options,
                                 const std::string& outArg);

}  // namespace kwb::cli
