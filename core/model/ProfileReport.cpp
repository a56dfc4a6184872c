// SPDX-License-Identifier: MIT
#include "core/model/ProfileReport.h"

#include "core/model/JsonReader.h"

namespace kwb {

void read(const JsonReader& r, PipeStat& p) {
  p = PipeStat{};
  p.busyCycles = r.find("busy_cycles") ? r.at("busy_cycles").asInt(0, INT64_MAX) : 0;
  auto ratio = r.at("ratio");
  p.ratio = ratio.asNumber();
  if (p.ratio < 0.0 || p.ratio > 1.0) ratio.expected("a ratio in [0, 1]");
}

void read(const JsonReader& r, ProfileReport& p) {
  p = ProfileReport{};
  p.soc = r.getString("soc", "");
  p.source = r.getString("source", "");
  p.totalCycles = r.find("total_cycles") ? r.at("total_cycles").asInt(0, INT64_MAX) : 0;
  p.totalUs = r.getNumber("total_us", 0.0);
  if (auto pipes = r.find("pipes")) {
    for (const auto& [name, stat] : pipes->members()) read(stat, p.pipes[name]);
  }
  p.bound = r.getString("bound", "");
  p.floorUs = r.optNumber("floor_us");
  p.gmBytes = r.find("gm_bytes") ? r.at("gm_bytes").asInt(0, INT64_MAX) : 0;
  p.ubBytes = r.find("ub_bytes") ? r.at("ub_bytes").asInt(0, INT64_MAX) : 0;
  p.achievedGbps = r.optNumber("achieved_gbps");
  if (auto a = r.find("artifacts"))
    for (const auto& [label, path] : a->members()) p.artifacts[label] = path.asString();
  if (auto e = r.find("extra")) {
    e->requireObject();
    p.extra = e->value();
  }
}

void to_json(nlohmann::json& j, const PipeStat& p) {
  j = {{"busy_cycles", p.busyCycles}, {"ratio", p.ratio}};
}

void to_json(nlohmann::json& j, const ProfileReport& p) {
  j = {{"soc", p.soc},          {"source", p.source},    {"total_cycles", p.totalCycles},
       {"total_us", p.totalUs}, {"pipes", p.pipes},      {"bound", p.bound},
       {"gm_bytes", p.gmBytes}, {"ub_bytes", p.ubBytes}, {"artifacts", p.artifacts},
       {"extra", p.extra}};
  if (p.floorUs) j["floor_us"] = *p.floorUs;
  if (p.achievedGbps) j["achieved_gbps"] = *p.achievedGbps;
}

void from_json(const nlohmann::json& j, PipeStat& p) {
  read(JsonReader(j, ""), p);
}

void from_json(const nlohmann::json& j, ProfileReport& p) {
  read(JsonReader(j, ""), p);
}

}  // namespace kwb
