// SPDX-License-Identifier: MIT
#include "core/model/PhaseTimings.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

namespace kwb {

void PhaseClock::lap(std::string phase, std::string caseName) {
  const auto now = std::chrono::steady_clock::now();
  into_.push_back({std::move(phase), std::move(caseName),
                   std::chrono::duration<double, std::milli>(now - last_).count()});
  last_ = now;
}

PhaseTimings totalsByPhase(const PhaseTimings& timings) {
  PhaseTimings totals;
  for (const auto& t : timings) {
    auto it =
        std::find_if(totals.begin(), totals.end(), [&](const PhaseTiming& s) { return s.phase == t.phase; });
    if (it == totals.end())
      totals.push_back({t.phase, {}, t.ms});
    else
      it->ms += t.ms;
  }
  return totals;
}

namespace {
std::string printf1(const char* format, double a, double b = 0.0) {
  char line[160];
  std::snprintf(line, sizeof line, format, a, b);
  return line;
}
}  // namespace

std::string formatPhaseTimings(const PhaseTimings& timings, double totalMs) {
  std::string out = "timings: " + printf1("%.1f ms", totalMs) + " in all\n";
  std::map<std::string, int> casesPerPhase;
  std::vector<std::string> caseOrder;
  for (const auto& t : timings) {
    if (t.caseName.empty()) continue;
    ++casesPerPhase[t.phase];
    if (std::find(caseOrder.begin(), caseOrder.end(), t.caseName) == caseOrder.end())
      caseOrder.push_back(t.caseName);
  }
  double covered = 0.0;
  for (const auto& s : totalsByPhase(timings)) {
    covered += s.ms;
    std::string line = "  " + s.phase;
    line.resize(std::max<std::size_t>(line.size() + 1, 20), ' ');
    line += printf1("%9.1f ms %5.1f %%", s.ms, totalMs > 0 ? 100.0 * s.ms / totalMs : 0.0);
    if (auto it = casesPerPhase.find(s.phase); it != casesPerPhase.end())
      line += "  (" + std::to_string(it->second) + (it->second == 1 ? " case)" : " cases)");
    out += line + "\n";
  }
  if (totalMs > covered) {
    std::string line = "  other";
    line.resize(20, ' ');
    out += line +
           printf1("%9.1f ms %5.1f %%", totalMs - covered,
                   totalMs > 0 ? 100.0 * (totalMs - covered) / totalMs : 0.0) +
           "\n";
  }
  for (const auto& c : caseOrder) {
    std::string line = "  case " + c + ":";
    for (const auto& t : timings)
      if (t.caseName == c) line += " " + t.phase + printf1(" %.1f", t.ms);
    out += line + " ms\n";
  }
  return out;
}

std::string phaseTimingsSummaryLine(const PhaseTimings& timings, double totalMs, std::size_t maxPhases) {
  PhaseTimings totals = totalsByPhase(timings);
  std::stable_sort(totals.begin(), totals.end(),
                   [](const PhaseTiming& a, const PhaseTiming& b) { return a.ms > b.ms; });
  std::string line = printf1("eval %.0f ms", totalMs);
  for (std::size_t k = 0; k < totals.size() && k < maxPhases; ++k)
    line += (k == 0 ? ": " : ", ") + totals[k].phase + printf1(" %.0f", totals[k].ms);
  if (totals.size() > maxPhases) line += ", \u2026";
  return line;
}

std::optional<std::string> reportTimingsSummaryLine(const nlohmann::json& report) {
  if (!report.is_object()) return std::nullopt;
  const auto timings = report.find("timings");
  const auto total = report.find("duration_ms");
  if (timings == report.end() || !timings->is_array() || total == report.end() || !total->is_number())
    return std::nullopt;
  PhaseTimings parsed;
  for (const auto& t : *timings) {
    if (!t.is_object() || !t.contains("phase") || !t["phase"].is_string() || !t.contains("ms") ||
        !t["ms"].is_number())
      return std::nullopt;
    parsed.push_back({t["phase"].get<std::string>(), {}, t["ms"].get<double>()});
  }
  return phaseTimingsSummaryLine(parsed, total->get<double>());
}

void to_json(nlohmann::json& j, const PhaseTiming& t) {
  j = nlohmann::json{{"phase", t.phase}, {"ms", t.ms}};
  if (!t.caseName.empty()) j["case"] = t.caseName;
}
void from_json(const nlohmann::json& j, PhaseTiming& t) {
  t.phase = j.at("phase").get<std::string>();
  t.caseName = j.value("case", std::string());
  t.ms = j.at("ms").get<double>();
}

}  // namespace kwb
