// SPDX-License-Identifier: MIT
#pragma once
// What the agent loop does next, decided over an immutable session snapshot: which iteration the next
// round builds on and in which mode (initial, repair, optimise), whether a budget or the goal ends the
// loop, and what a finished round changes. Pure: no threads, no I/O, no clock (the caller passes the
// elapsed time), so every decision is unit-tested on constructed sessions (docs/architecture.md, "The
// agent loop"). AgentLoop owns the mutable LoopProgress and applies what this returns.

#include <optional>
#include <string>
#include <vector>

#include "core/agent/PromptBuilder.h"
#include "core/model/Constraint.h"
#include "core/model/Session.h"

namespace kwb {

// The loop's own state between rounds (not part of the session file; rebuilt from it on reopening).
struct LoopProgress {
  std::optional<int> head;         // what the next round builds on
  std::optional<int> lastAttempt;  // the latest attempt not kept (its feedback goes into the next prompt)
  int roundsWithoutImprovement = 0;
  bool afterRollback = false;  // the engineer rolled back to `head`; the next round records it
  bool operator==(const LoopProgress&) const = default;
};

// What one round works from, fixed when the round starts.
struct RoundPlan {
  PromptMode mode = PromptMode::Initial;
  std::optional<int> parentId;
  std::optional<int> lastAttemptId;
  std::string hint;
  std::vector<Constraint> constraints;
  std::optional<double> baselineUs;
  bool afterRollback = false;  // iterations of this round start a branch the engineer asked for
};

struct RoundPolicyConfig {
  int defaultPatience = 3;        // when SessionLimits.patience is unset
  int defaultMaxIterations = 20;  // when no iteration/token/time budget is set at all
  double minImprovement = 0.02;   // an optimisation round must be this much faster to count
};

// The result of a finished round: the new progress, and a reason to finish when the round showed
// that going on is pointless (every candidate failed in the workbench or the LLM).
struct RoundDecision {
  LoopProgress progress;
  std::optional<std::string> finish;
};

class RoundPolicy {
 public:
  explicit RoundPolicy(RoundPolicyConfig config = {}) : config_(config) {}

  // The base when a session is (re)opened: `preferred` (the iteration the engineer left the session on),
  // else the accepted iteration, each only when it finished with a candidate; else the fastest passing
  // finished iteration (ties: the earliest), else the latest finished one with a candidate.
  std::optional<int> initialHead(const Session& s, std::optional<int> preferred = std::nullopt) const;
  // The next round's plan from `progress`; `hint` is the engineer's queued text.
  RoundPlan plan(const Session& s, const LoopProgress& progress, std::string hint) const;
  // Why the loop should finish before another round (budget, target, patience); nullopt: go on.
  std::optional<std::string> limitReached(const Session& s, const LoopProgress& progress,
                                          double elapsedSeconds) const;
  // What the round of `plan` that produced iterations `ids` changes. `now` is the progress at the end
  // of the round: when the engineer moved the base meanwhile (an edit, a roll back), it is kept.
  RoundDecision decide(const Session& s, const RoundPlan& plan, const std::vector<int>& ids,
                       const LoopProgress& now) const;
  // Progress after a roll back to `target`, and after an engineer's edit `editId` was evaluated.
  static LoopProgress rolledBack(int target);
  static LoopProgress afterEdit(int editId);

  const RoundPolicyConfig& config() const { return config_; }

 private:
  RoundPolicyConfig config_;
};

// Estimated time of a passing iteration (profile totalUs), nullopt without a profile. (The baseline
// and the best passing iteration are SessionSummary.h's: sessionBaselineUs, bestPassingIteration.)
std::optional<double> iterationTimeUs(const Iteration& it);

}  // namespace kwb
