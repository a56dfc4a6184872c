// SPDX-License-Identifier: MIT
#pragma once
// What `kwb run --json`, `kwb session show` and lesson players print about a session: the best passing
// iteration, the speedup over the baseline, and the iteration tree with verdicts and timings.

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/model/Session.h"

namespace kwb {

// The passing iteration with the lowest estimated time (ties: the earliest); nullopt when none passed.
std::optional<int> bestPassingIteration(const Session& s);
// The task's baseline, else the first passing iteration's estimated time.
std::optional<double> sessionBaselineUs(const Session& s);

// {"task", "backend", "provider", "model", "iterations": N, "passing": N, "best_iteration", "best_us",
//  "baseline_us", "speedup", "accepted", "tokens": {"prompt", "completion"}, "tree": [{"id", "parent",
//  "origin", "state", "verdict", "summary", "us", "duration_ms", "compile_ms", "run_ms", "llm_ms",
//  "created_at", "finished_at", "children"}]}
nlohmann::json sessionSummaryJson(const Session& s);

// Indented tree, one iteration per line:
//   #1 agent  compile_error  [compile-error] kernel.cpp:12 ...            llm 1.2s compile 0.8s
//   └─ #2 agent  pass  41.2 us (1.00x)  best
std::string renderIterationTree(const Session& s);

// One line for an iteration: verdict or state and the first error (or the verify summary / time).
std::string iterationHeadline(const Iteration& it);

}  // namespace kwb
