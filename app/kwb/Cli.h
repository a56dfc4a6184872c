// SPDX-License-Identifier: MIT
#pragma once
// Shared plumbing of the kwb command groups: exit codes (README, "Exit codes") and JSON/text output.

#include <CLI/CLI.hpp>
#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

namespace kwb::cli {

// Exit codes of the CLI contract, plus 4 for an LLM provider or network failure (`kwb run`): a server,
// key or network problem is not an internal error. README.md ("Exit codes") has the table.
enum ExitCode : int { Success = 0, Failed = 1, BadInput = 2, InternalError = 3, LlmFailure = 4 };

// Every command sets its action through this; main() runs it after parsing, maps exceptions to exit
// code 3 and keeps --json output a single document.
using Action = std::function<int()>;

struct Context {
  Action action;
};

// Registration functions, one per command group (see the matching *Command.cpp).
void addDoctorCommand(CLI::App& app, Context& ctx);
void addTaskCommand(CLI::App& app, Context& ctx);
void addEvalCommand(CLI::App& app, Context& ctx);
void addSuiteCommand(CLI::App& app, Context& ctx);
// suite run / report / compare, added to the `suite` group (SuiteRunCommand.cpp).
void addSuiteRunCommands(CLI::App& suite, Context& ctx);
// suite run-sample: one sample inside a Slurm job (SuiteRunSampleCommand.cpp).
void addSuiteRunSampleCommand(CLI::App& suite, Context& ctx);
void addSimCommand(CLI::App& app, Context& ctx);
void addRunCommand(CLI::App& app, Context& ctx);
void addSessionCommand(CLI::App& app, Context& ctx);
void addLessonCommand(CLI::App& app, Context& ctx);
void addCalibrateCommand(CLI::App& app, Context& ctx);

// Prints one JSON document (pretty) on stdout.
void printJson(const nlohmann::json& doc);

}  // namespace kwb::cli
