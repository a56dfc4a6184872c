// SPDX-License-Identifier: MIT
#pragma once
// The folder a suite run keeps (docs/suites.md, "The suite folder"):
//   DIR/suite.json                          the plan: tasks, samples, limits, budgets, provider (no key)
//   DIR/sessions/<task>/sample-<k>/         sample k of the task: a normal session (kwb session show,
//                                           the workbench opens it)
//   DIR/sessions/<task>/sample-<k>.done.json  written atomically once that session's loop ended by
//                                           itself: a resumed suite does not run it again
//   DIR/expert/<task>.json                  the expert candidate's measured time (the fast_p baseline)
//   DIR/report.json, report.xml, report.html  kwb suite report (and the end of kwb suite run)

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/Session.h"

namespace kwb::suite {

struct SuiteTask {
  std::string name;  // the task's name (unique in a suite)
  std::filesystem::path dir;
  bool operator==(const SuiteTask&) const = default;
};

// Budgets over many sessions. Tokens and iterations are counted from the sessions on disk, so they hold
// across resumes; seconds are wall time of this invocation (a resumed run starts its clock again).
struct SuiteBudgets {
  std::optional<std::int64_t> taskTokens, totalTokens;
  std::optional<int> taskIterations, totalIterations;
  std::optional<double> taskSeconds, totalSeconds;
  bool operator==(const SuiteBudgets&) const = default;
};

struct SuitePlan {
  std::vector<SuiteTask> tasks;
  int samples = 1;
  SessionSettings settings;  // backend, provider, model, base URL (redacted) and the per-session limits
  SuiteBudgets budgets;
  std::string createdAt;
  bool operator==(const SuitePlan& o) const {
    return tasks == o.tasks && samples == o.samples && settings == o.settings && budgets == o.budgets;
  }
};

inline constexpr const char* kSuitePlanFile = "suite.json";
inline constexpr int kMaxSuiteSamples = 1000;

// A task name as a suite folder uses it: a C identifier (task.json's rule), at most 128 characters.
bool isSuiteTaskName(const std::string& name);

std::filesystem::path sampleSessionDir(const std::filesystem::path& suiteDir, const std::string& task,
                                       int sample);
std::filesystem::path sampleDoneFile(const std::filesystem::path& suiteDir, const std::string& task,
                                     int sample);
std::filesystem::path expertResultFile(const std::filesystem::path& suiteDir, const std::string& task);

nlohmann::json planToJson(const SuitePlan& plan);
// Throws std::runtime_error naming `label` and the bad key.
SuitePlan planFromJson(const nlohmann::json& j, const std::string& label);

// Reads DIR/suite.json; std::runtime_error naming the file on any problem.
SuitePlan readSuitePlan(const std::filesystem::path& suiteDir);
void writeSuitePlan(const std::filesystem::path& suiteDir, const SuitePlan& plan);

// Writes `doc` to `file` atomically (a kill never leaves half a file), creating its folder.
void writeJsonAtomic(const std::filesystem::path& file, const nlohmann::json& doc);
// The document in `file` (bounded read, at most 16 MiB); nullopt when it does not exist, runtime_error
// naming the file when it cannot be read or parsed.
std::optional<nlohmann::json> readJsonFile(const std::filesystem::path& file);

}  // namespace kwb::suite
