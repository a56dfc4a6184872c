// SPDX-License-Identifier: MIT
#pragma once
// Where an evaluation's time went: one entry per phase (and per case for the per-case phases), in the
// order the phases ran. `kwb eval --timings` prints them, the workbench's status bar shows the last
// evaluation's, and docs/benchmarks.md records them before and after each speed change.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kwb {

struct PhaseTiming {
  std::string phase;     // "policy", "compile", "reference-build", "inputs", "sandbox-setup", ...
  std::string caseName;  // empty for the phases that are not about one case
  double ms = 0.0;
  bool operator==(const PhaseTiming&) const = default;
};

using PhaseTimings = std::vector<PhaseTiming>;

// Measures consecutive phases: each lap() closes the phase that began at the previous lap (or at
// construction) and appends it.
class PhaseClock {
 public:
  explicit PhaseClock(PhaseTimings& into) : into_(into), last_(std::chrono::steady_clock::now()) {}
  void lap(std::string phase, std::string caseName = {});
  // Forgets the time since the last lap (a part that belongs to no phase, or one measured elsewhere).
  void skip() { last_ = std::chrono::steady_clock::now(); }

 private:
  PhaseTimings& into_;
  std::chrono::steady_clock::time_point last_;
};

// Sums per phase, in the order each phase first appears.
PhaseTimings totalsByPhase(const PhaseTimings& timings);

// The text `kwb eval --timings` prints: the total, one line per phase with its share of the total and,
// for per-case phases, the number of cases, then one line per case. `totalMs` is the evaluation's
// duration (what the phases do not cover shows as "other").
std::string formatPhaseTimings(const PhaseTimings& timings, double totalMs);

// One line for a status bar: the total and the largest phases ("eval 812 ms: compile 420, emulator 210, …").
std::string phaseTimingsSummaryLine(const PhaseTimings& timings, double totalMs, std::size_t maxPhases = 4);

// The summary line of an evaluation report as `kwb eval --json` and eval.json hold it ("timings",
// "duration_ms"); nullopt when the report has no timings or they are malformed (the file is the
// workbench's own, but a damaged session must not stop the window).
std::optional<std::string> reportTimingsSummaryLine(const nlohmann::json& report);

void to_json(nlohmann::json& j, const PhaseTiming& t);
void from_json(const nlohmann::json& j, PhaseTiming& t);

}  // namespace kwb
