// SPDX-License-Identifier: MIT
#include "core/suite/SuiteCompare.h"

#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>

namespace kwb::suite {

namespace {

// metric name -> value (null when the report has none) of one metric group.
std::map<std::string, nlohmann::json> flatten(const nlohmann::json& g) {
  std::map<std::string, nlohmann::json> out;
  for (const char* family : {"compile_at_k", "correct_at_k"})
    if (g.contains(family))
      for (const auto& [k, v] : g.at(family).items())
        out[std::string(family).substr(0, std::string(family).find("_at_k")) + "@" + k] = v;
  for (const auto& [family, label] :
       {std::pair<const char*, const char*>{"fast_p_vs_expert", "fast_%s vs expert"},
        {"fast_p_vs_task_baseline", "fast_%s vs task"}})
    if (g.contains(family))
      for (const auto& [p, v] : g.at(family).items()) {
        char name[64];
        std::snprintf(name, sizeof name, label, p.c_str());
        out[name] = v;
      }
  for (const char* key :
       {"mean_iterations_to_correct", "mean_tokens_to_correct", "correct_samples", "samples"})
    if (g.contains(key)) out[key] = g.at(key);
  return out;
}

const nlohmann::json& metricsOf(const nlohmann::json& report, const std::string& label) {
  if (!report.is_object() || !report.contains("metrics") || !report["metrics"].contains("overall") ||
      !report["metrics"].contains("tasks"))
    throw std::runtime_error(label + ": not a kwb suite report (no /metrics/overall and /metrics/tasks)");
  return report["metrics"];
}

void addRows(nlohmann::json& rows, const std::string& group, const nlohmann::json& a,
             const nlohmann::json& b) {
  const auto fa = flatten(a), fb = flatten(b);
  for (const auto& [metric, va] : fa) {
    const auto it = fb.find(metric);
    if (it == fb.end()) continue;
    const nlohmann::json& vb = it->second;
    nlohmann::json delta = nullptr;
    if (va.is_number() && vb.is_number()) delta = vb.get<double>() - va.get<double>();
    rows.push_back({{"group", group}, {"metric", metric}, {"a", va}, {"b", vb}, {"delta", delta}});
  }
}

std::string cell(const nlohmann::json& v) {
  if (v.is_null()) return "-";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v.get<double>());
    return buf;
  }
  return v.dump();
}

}  // namespace

nlohmann::json compareSuiteReports(const nlohmann::json& a, const nlohmann::json& b,
                                   const std::string& labelA, const std::string& labelB) {
  const auto& ma = metricsOf(a, labelA);
  const auto& mb = metricsOf(b, labelB);
  nlohmann::json rows = nlohmann::json::array();
  addRows(rows, "overall", ma["overall"], mb["overall"]);
  std::map<std::string, const nlohmann::json*> tasksB;
  for (const auto& t : mb["tasks"]) tasksB[t.value("name", "")] = &t;
  for (const auto& t : ma["tasks"]) {
    const std::string name = t.value("name", "");
    if (auto it = tasksB.find(name); it != tasksB.end()) addRows(rows, name, t, *it->second);
  }
  return {{"a", labelA},
          {"b", labelB},
          {"timing_source", {{"a", a.value("timing_source", "")}, {"b", b.value("timing_source", "")}}},
          {"rows", rows}};
}

std::string renderSuiteComparison(const nlohmann::json& c) {
  std::ostringstream out;
  out << "A: " << c.value("a", "") << "\nB: " << c.value("b", "") << "\n";
  out << "times: A " << c["timing_source"].value("a", "") << "; B " << c["timing_source"].value("b", "")
      << "\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-24s %-28s %12s %12s %12s\n", "group", "metric", "A", "B", "B-A");
  out << line;
  for (const auto& r : c["rows"]) {
    std::snprintf(line, sizeof line, "%-24s %-28s %12s %12s %12s\n", r.value("group", "").c_str(),
                  r.value("metric", "").c_str(), cell(r["a"]).c_str(), cell(r["b"]).c_str(),
                  cell(r["delta"]).c_str());
    out << line;
  }
  return out.str();
}

}  // namespace kwb::suite
