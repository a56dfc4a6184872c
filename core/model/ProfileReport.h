// SPDX-License-Identifier: MIT
#pragma once
// Where the time went for one run: cycles and microseconds, per-pipe busy time, the bound, the
// theoretical floor and memory traffic. The typed fields are what prompts, charts and comparisons use;
// `extra` keeps whatever else a profiler reported (msprof columns, cost-model internals) unmodified.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace kwb {

class JsonReader;

struct PipeStat {
  std::int64_t busyCycles = 0;
  double ratio = 0.0;  // busy / total, in [0, 1]
  bool operator==(const PipeStat&) const = default;
};

struct ProfileReport {
  std::string soc;
  std::string source;  // "emulator-model", "msprof", "msprof-simulator"
  std::int64_t totalCycles = 0;
  double totalUs = 0.0;
  std::map<std::string, PipeStat> pipes;  // "vector", "scalar", "mte2", "mte3", "cube", ...
  std::string bound;                      // the pipe or resource that limits: "mte2", "vector", ...
  std::optional<double> floorUs;          // roofline lower bound for this workload on this SoC
  std::int64_t gmBytes = 0;
  std::int64_t ubBytes = 0;
  std::optional<double> achievedGbps;
  std::map<std::string, std::string> artifacts;  // label -> path (trace.json, csv) relative to the iteration
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const ProfileReport&) const = default;
};

void read(const JsonReader& r, PipeStat& p);
void read(const JsonReader& r, ProfileReport& p);
void to_json(nlohmann::json& j, const PipeStat& p);
void from_json(const nlohmann::json& j, PipeStat& p);
void to_json(nlohmann::json& j, const ProfileReport& p);
void from_json(const nlohmann::json& j, ProfileReport& p);

}  // namespace kwb
