// SPDX-License-Identifier: MIT
#pragma once
// What one sample (one session of one task) contributed to a suite: whether any candidate compiled or
// passed, the fastest passing time, how many iterations and tokens it took to reach the first correct
// kernel, the diagnostic categories met on the way, and where its numbers ran. Read from the session
// alone, so a report can be rebuilt from the suite folder at any time (docs/suites.md).

#include <map>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/model/Session.h"

namespace kwb::suite {

struct SampleOutcome {
  std::string task;
  std::string category;
  int sample = 0;                // 1-based
  bool finished = false;         // the loop ended by itself (not killed, stopped or cut by a suite budget)
  std::string finishReason;      // the loop's reason, "" while unfinished
  int iterations = 0;            // evaluated iterations (state done)
  std::int64_t tokens = 0;       // prompt + completion, every iteration
  bool compiled = false;         // some candidate compiled
  bool correct = false;          // some candidate passed every case
  std::optional<double> bestUs;  // fastest passing estimated time
  std::optional<int> iterationsToCorrect;  // evaluated iterations up to and including the first pass
  std::optional<std::int64_t> tokensToCorrect;
  std::set<std::string> diagnosticCategories;  // every error/warning category met, all iterations
  std::set<std::string> ranOn;                 // "emulator", "npu", ... of every run
  std::set<std::string> profileSources;        // "emulator-model", "msprof", ...
  std::optional<double> taskBaselineUs;        // the task's stated baseline (task.json)
  bool operator==(const SampleOutcome&) const = default;
};

// The outcome of `session` as sample `sample` of its task (finished/finishReason are the caller's).
SampleOutcome sampleOutcomeFromSession(const Session& session, int sample);

void to_json(nlohmann::json& j, const SampleOutcome& o);
// Throws std::runtime_error naming the missing or mistyped key.
SampleOutcome sampleOutcomeFromJson(const nlohmann::json& j);

}  // namespace kwb::suite
