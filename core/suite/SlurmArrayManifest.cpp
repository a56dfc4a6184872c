// SPDX-License-Identifier: MIT
#include "core/suite/SlurmArrayManifest.h"

#include <algorithm>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

namespace kwb::suite {

namespace fs = std::filesystem;

fs::path slurmArrayManifestFile(const fs::path& suiteDir, int number) {
  return suiteDir / "slurm" / ("array-" + std::to_string(number) + ".json");
}

fs::path slurmArrayOutputPattern(const fs::path& suiteDir, int number) {
  return suiteDir / "slurm" / ("array-" + std::to_string(number) + ".%a.out");
}

fs::path slurmArrayOutputFile(const fs::path& suiteDir, int number, int index) {
  return suiteDir / "slurm" / ("array-" + std::to_string(number) + "." + std::to_string(index) + ".out");
}

int nextSlurmArrayNumber(const fs::path& suiteDir) {
  int highest = 0;
  std::error_code ec;
  for (fs::directory_iterator it(suiteDir / "slurm", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::string prefix = "array-";
    const std::string suffix = ".json";
    if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    highest = std::max(highest, std::stoi(digits));
  }
  return highest + 1;
}

nlohmann::json slurmArrayManifestToJson(const std::vector<SlurmArrayElement>& elements) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& e : elements)
    list.push_back({{"task", e.task}, {"sample", e.sample}, {"attempt", e.attempt}});
  return {{"elements", std::move(list)}};
}

std::vector<SlurmArrayElement> slurmArrayManifestFromJson(const nlohmann::json& doc,
                                                          const std::string& label) {
  if (!doc.is_object() || !doc.contains("elements") || !doc["elements"].is_array())
    throw std::runtime_error(label + ": not a job array manifest (no \"elements\" list)");
  std::vector<SlurmArrayElement> out;
  for (std::size_t i = 0; i < doc["elements"].size(); ++i) {
    const auto& e = doc["elements"][i];
    const std::string where = label + ": elements[" + std::to_string(i) + "]";
    if (!e.is_object() || !e.contains("task") || !e["task"].is_string() || !e.contains("sample") ||
        !e["sample"].is_number_integer())
      throw std::runtime_error(where + " needs \"task\" (a string) and \"sample\" (an integer)");
    const bool hasAttempt = e.contains("attempt") && e["attempt"].is_number_integer();
    SlurmArrayElement element{e["task"].get<std::string>(), e["sample"].get<int>(),
                              hasAttempt ? e["attempt"].get<int>() : 0};
    if (element.sample < 1) throw std::runtime_error(where + ": sample " + std::to_string(element.sample));
    // A task's name names files in the suite folder (SuiteLayout.h): never a path.
    if (element.task.empty() || element.task == "." || element.task == ".." ||
        element.task.find('/') != std::string::npos)
      throw std::runtime_error(where + ": the task name '" + element.task.substr(0, 100) + "' is not a name");
    out.push_back(std::move(element));
  }
  return out;
}

}  // namespace kwb::suite
