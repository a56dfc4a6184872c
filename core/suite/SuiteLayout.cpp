// SPDX-License-Identifier: MIT
#include "core/suite/SuiteLayout.h"

#include <cctype>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/base/BoundedFileRead.h"
#include "core/store/AtomicFile.h"

namespace kwb::suite {

namespace fs = std::filesystem;

namespace {

constexpr int kPlanSchema = 1;
constexpr std::uintmax_t kMaxJsonBytes = 16u << 20;

std::string sampleName(int sample) {
  return "sample-" + std::to_string(sample);
}

template <typename T>
nlohmann::json optionalJson(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

template <typename T>
std::optional<T> optionalFrom(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<T>();
}

}  // namespace

bool isSuiteTaskName(const std::string& name) {
  if (name.empty() || name.size() > 128 || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

fs::path sampleSessionDir(const fs::path& suiteDir, const std::string& task, int sample) {
  return suiteDir / "sessions" / task / sampleName(sample);
}

fs::path sampleDoneFile(const fs::path& suiteDir, const std::string& task, int sample) {
  return suiteDir / "sessions" / task / (sampleName(sample) + ".done.json");
}

fs::path expertResultFile(const fs::path& suiteDir, const std::string& task) {
  return suiteDir / "expert" / (task + ".json");
}

nlohmann::json planToJson(const SuitePlan& plan) {
  nlohmann::json tasks = nlohmann::json::array();
  for (const auto& t : plan.tasks) tasks.push_back({{"name", t.name}, {"dir", t.dir.string()}});
  const auto& b = plan.budgets;
  return {{"schema_version", kPlanSchema},
          {"created_at", plan.createdAt},
          {"tasks", tasks},
          {"samples", plan.samples},
          {"settings", plan.settings},
          {"budgets",
           {{"task_tokens", optionalJson(b.taskTokens)},
            {"total_tokens", optionalJson(b.totalTokens)},
            {"task_iterations", optionalJson(b.taskIterations)},
            {"total_iterations", optionalJson(b.totalIterations)},
            {"task_seconds", optionalJson(b.taskSeconds)},
            {"total_seconds", optionalJson(b.totalSeconds)}}}};
}

SuitePlan planFromJson(const nlohmann::json& j, const std::string& label) {
  try {
    if (!j.is_object()) throw std::runtime_error("not a JSON object");
    if (j.value("schema_version", 0) > kPlanSchema)
      throw std::runtime_error("written by a newer kwb (schema_version " +
                               std::to_string(j.value("schema_version", 0)) + ")");
    SuitePlan plan;
    plan.createdAt = j.value("created_at", "");
    for (const auto& t : j.at("tasks")) {
      SuiteTask task{t.at("name").get<std::string>(), t.at("dir").get<std::string>()};
      // Names become folder names under DIR/sessions: only what a task name may be (a C identifier).
      if (!isSuiteTaskName(task.name))
        throw std::runtime_error("/tasks: \"" + task.name + "\" is not a task name (a C identifier)");
      plan.tasks.push_back(std::move(task));
    }
    plan.samples = j.at("samples").get<int>();
    if (plan.samples < 1 || plan.samples > kMaxSuiteSamples)
      throw std::runtime_error("/samples must be 1.." + std::to_string(kMaxSuiteSamples));
    plan.settings = j.at("settings").get<SessionSettings>();
    const auto& b = j.at("budgets");
    plan.budgets.taskTokens = optionalFrom<std::int64_t>(b, "task_tokens");
    plan.budgets.totalTokens = optionalFrom<std::int64_t>(b, "total_tokens");
    plan.budgets.taskIterations = optionalFrom<int>(b, "task_iterations");
    plan.budgets.totalIterations = optionalFrom<int>(b, "total_iterations");
    plan.budgets.taskSeconds = optionalFrom<double>(b, "task_seconds");
    plan.budgets.totalSeconds = optionalFrom<double>(b, "total_seconds");
    return plan;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(label + ": " + e.what());
  } catch (const std::exception& e) {
    throw std::runtime_error(label + ": " + e.what());
  }
}

SuitePlan readSuitePlan(const fs::path& suiteDir) {
  const fs::path file = suiteDir / kSuitePlanFile;
  auto doc = readJsonFile(file);
  if (!doc) throw std::runtime_error(file.string() + ": no suite plan here (not a suite folder)");
  return planFromJson(*doc, file.string());
}

void writeSuitePlan(const fs::path& suiteDir, const SuitePlan& plan) {
  writeJsonAtomic(suiteDir / kSuitePlanFile, planToJson(plan));
}

void writeJsonAtomic(const fs::path& file, const nlohmann::json& doc) {
  fs::create_directories(file.parent_path());
  writeFileAtomic(file, doc.dump(2) + "\n", Durability::Sync);
}

std::optional<nlohmann::json> readJsonFile(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  std::string error;
  auto text = readBoundedRegularFile(file, kMaxJsonBytes, error);
  if (!text) throw std::runtime_error(file.string() + ": " + error);
  try {
    return nlohmann::json::parse(*text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(file.string() + ": not valid JSON: " + e.what());
  }
}

}  // namespace kwb::suite
