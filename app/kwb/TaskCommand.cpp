// SPDX-License-Identifier: MIT
#include <filesystem>
#include <iostream>

#include "app/kwb/Cli.h"
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
    out["task"] = {{"name", task.name},
                   {"category", task.category},
                   {"inputs", task.inputs.size()},
                   {"outputs", task.outputs.size()},
                   {"cases", task.cases.size()},
                   {"soc", task.soc},
                   {"has_reference", fs::exists(dir / "reference.cpp", ec)},
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
}

}  // namespace kwb::cli
