// SPDX-License-Identifier: MIT
#include "app/kwb/TaskImportKernelBench.h"

#include <iostream>
#include <stdexcept>

#include "app/kwb/Cli.h"
#include "core/agent/KernelBenchImport.h"

namespace kwb::cli {

void addKernelBenchImportOptions(CLI::App& import, const std::shared_ptr<KernelBenchCliOptions>& options) {
  import
      .add_option(
          "--from", options->from,
          "kernelbench: DIR is a KernelBench / MultiKernelBench problem .py; npukernelbench: DIR is an "
          "NPUKernelBench task folder (answer/, validation/)")
      ->check(CLI::IsMember({"kernelbench", "npukernelbench", "op-project"}));
  import.add_option("--shape", options->shapes,
                    "(kernelbench) an extra case: INPUT=AxB[,INPUT=AxB...]; repeat for more cases");
  import.add_option("--name", options->name, "(kernelbench) the task name (default: from the file name)");
}

int importKernelBenchTaskCommand(const std::string& problemFile, const std::string& casesFile,
                                 const std::string& soc, const KernelBenchCliOptions& options,
                                 const std::string& outArg) {
  KernelBenchImportOptions o;
  o.name = options.name;
  o.soc = soc;
  try {
    if (!casesFile.empty()) o.extraCases = readKernelBenchCasesFile(casesFile);
    for (std::size_t k = 0; k < options.shapes.size(); ++k)
      o.extraCases.push_back(
          parseKernelBenchShapeOption(options.shapes[k], "shape_" + std::to_string(k + 1)));
  } catch (const std::exception& ex) {
    std::cerr << ex.what() << "\n";
    return BadInput;
  }
  const KernelBenchImport r = importKernelBenchProblem(problemFile, o);
  if (!r.ok()) {
    for (const auto& e : r.errors) std::cerr << e.format() << "\n";
    return BadInput;
  }
  if (const std::string failed = writeKernelBenchTask(r, outArg); !failed.empty()) {
    std::cerr << failed << "\n";
    return failed.find("already holds") != std::string::npos ? BadInput : InternalError;
  }
  std::cout << outArg << ": task '" << r.task.name << "' (" << r.task.inputs.size() << " inputs, "
            << r.task.outputs.size() << " outputs, " << r.task.cases.size()
            << " cases) with a python3-torch reference (reference.py)\n";
  return Success;
}

}  // namespace kwb::cli
