// SPDX-License-Identifier: MIT
#include <filesystem>
#include <iostream>

#include <fstream>

#include "app/kwb/Cli.h"
#include "app/kwb/TaskImportKernelBench.h"
#include "app/kwb/TaskImportNpuKernelBench.h"
#include "core/agent/ImportedTask.h"
#include "core/agent/OpProjectImport.h"
#include "core/model/Task.h"
#include "core/toolchain/TaskPreflight.h"

namespace kwb::cli {
namespace {

// Validates a task folder (or a task.json) and reports every semantic problem, not just the first,
// so an author fixes them in one pass.
int validateTaskCommand(const std::string& pathArg, bool json) {
  namespace fs = std::filesystem;
  fs::path path(pathArg);
  std::error_code ec;
  fs::path taskJson = fs::is_directory(path, ec) ? path / "task.json" : path;
  nlohmann::json out{{"path", pathArg}};
  std::vector<ValidationIssue> issues;
  Task task;
  try {
    if (!fs::exists(taskJson, ec))
      throw LoadError(
          pathArg, "",
          fs::is_directory(path, ec) ? "not a task folder: it has no task.json" : "no such file or folder");
    read(JsonReader(readJsonFile(taskJson), taskJson.string()), task);
    issues = validateTask(task);
    // The SoC list is the installation's (resources/soc), so this check lives beside the model's rules.
    if (auto why = unknownSocProblem(task.soc); !why.empty()) issues.push_back({"/soc", why});
  } catch (const LoadError& e) {
    issues.push_back({e.pointer(), e.detail()});
    out["file"] = e.file().empty() ? taskJson.string() : e.file();
  }
  if (!out.contains("file")) out["file"] = taskJson.string();
  const bool ok = issues.empty();
  out["valid"] = ok;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& i : issues) list.push_back({{"pointer", i.pointer}, {"message", i.message}});
  out["problems"] = list;
  if (ok) {
    const fs::path dir = taskJson.parent_path().empty() ? fs::path(".") : taskJson.parent_path();
    const bool hasReference = fs::exists(dir / "reference.cpp", ec) || fs::exists(dir / "reference.py", ec);
    out["task"] = {{"name", task.name},
                   {"category", task.category},
                   {"inputs", task.inputs.size()},
                   {"outputs", task.outputs.size()},
                   {"cases", task.cases.size()},
                   {"soc", task.soc},
                   {"has_reference", hasReference},
                   {"has_readme", fs::exists(dir / "README.md", ec)}};
  }
  if (json) {
    printJson(out);
  } else if (ok) {
    std::cout << out["file"].get<std::string>() << ": valid task '" << task.name << "' ("
              << task.inputs.size() << " inputs, " << task.outputs.size() << " outputs, " << task.cases.size()
              << " cases)\n";
    if (!out["task"]["has_reference"].get<bool>())
      std::cout << "note: no reference.cpp beside task.json; the verifier needs one to evaluate candidates\n";
  } else {
    for (const auto& i : issues)
      std::cerr << out["file"].get<std::string>() << ": " << (i.pointer.empty() ? "/" : i.pointer) << ": "
                << i.message << "\n";
  }
  return ok ? Success : BadInput;
}

// `kwb task import DIR`: an operator project -> a task folder with the project's candidate under
// imported/ (docs/task-format.md, "Importing an operator project").
int importTaskCommand(const std::string& dir, const OperatorProjectImportOptions& options,
                      const std::string& outArg) {
  namespace fs = std::filesystem;
  const OperatorProjectImport r = importOperatorProject(dir, options);
  if (!r.ok()) {
    for (const auto& e : r.errors) std::cerr << e.format() << "\n";
    return BadInput;
  }
  for (const auto& w : r.warnings) std::cerr << w.format() << "\n";
  const fs::path out(outArg);
  if (const std::string failed = writeImportedTask(r, out); !failed.empty()) {
    std::cerr << failed << "\n";
    return failed.find("already holds") != std::string::npos ? BadInput : InternalError;
  }
  std::cout << outArg << ": task '" << r.task.name << "' (" << r.task.inputs.size() << " inputs, "
            << r.task.outputs.size() << " outputs, " << r.task.cases.size() << " cases) with the imported "
            << "candidate in " << (out / "imported").string() << " (" << r.candidate.files.size()
            << " files)\n";
  return Success;
}

}  // namespace

void addTaskCommand(CLI::App& app, Context& ctx) {
  auto* task = app.add_subcommand("task", "Work with task folders");
  task->require_subcommand(1);
  auto* validate =
      task->add_subcommand("validate", "Check a task folder or task.json and list every problem");
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  validate->add_option("PATH", *path, "Task folder or task.json")->required();
  validate->add_flag("--json", *json, "Print one JSON document");
  validate->callback(
      [&ctx, path, json] { ctx.action = [path, json] { return validateTaskCommand(*path, *json); }; });

  auto* import = task->add_subcommand(
      "import", "Turn a msopgen operator project or a kernel-launch sample folder into a task folder");
  auto dir = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto options = std::make_shared<OperatorProjectImportOptions>();
  auto cases = std::make_shared<std::string>();
  auto reference = std::make_shared<std::string>();
  import
      ->add_option("DIR", *dir,
                   "The operator project (op_host/, op_kernel/), a kernel-launch sample folder (a kernel "
                   ".cpp with its main.cpp), or a .py with --from kernelbench")
      ->required();
  import->add_option("--cases", *cases, "JSON array of task.json cases");
  import->add_option("--reference", *reference, "reference.cpp (docs/task-format.md)");
  auto kernelBench = std::make_shared<KernelBenchCliOptions>();
  addKernelBenchImportOptions(*import, kernelBench);
  import->add_option("--out", *out, "The task folder to write")->required();
  import->add_option("--dtype-combination", options->dtypeColumn, "Which DataType({...}) column (default 0)");
  import->add_option("--soc", options->soc, "Target SoC of the task");
  auto npu = std::make_shared<NpuKernelBenchCliOptions>();
  import->add_option("--answer", npu->answer,
                     "(npukernelbench) answer/N is the imported candidate (default 0)");
  import->add_option("--max-cases", npu->maxCases, "(npukernelbench) import at most N rows (default 64)")
      ->check(CLI::Range(1, 64));
  auto* dtypeOption = import->get_option("--dtype-combination");
  import->callback([&ctx, dir, out, options, cases, reference, kernelBench, npu, dtypeOption] {
    const bool dtypeGiven = dtypeOption->count() > 0;
  ctx.action = [dir, out, options, cases, reference, kernelBench, npu, dtypeGiven] {
    if (kernelBench->from == "kernelbench")
      return importKernelBenchTaskCommand(*dir, *cases, options->soc, *kernelBench, *out);
    if (kernelBench->from == "npukernelbench")
      return importNpuKernelBenchTaskCommand(
          *dir, *npu, dtypeGiven ? std::optional<std::size_t>(options->dtypeColumn) : std::nullopt,
          options->soc, *out);
    OperatorProjectImportOptions o = *options;
    o.casesFile = *cases;
    o.referenceFile = *reference;
    return importTaskCommand(*dir, o, *out);
  };
}  // namespace kwb::cli
);
}  // namespace kwb::cli

}  // namespace kwb::cli
