// SPDX-License-Identifier: MIT
#pragma once
// Runs one iteration of the agent loop from start to end: prompt -> LLM -> parse -> evaluate ->
// store, persisting after each step (docs/architecture.md, "The agent loop"). It knows nothing of
// threads, pausing or what the next round does: the loop that owns it passes hooks for events, the
// visible state and the step boundaries, and a stop flag. Several runs may go on at once (best-of-N);
// every member used by a run is either immutable or internally synchronised (SessionStore, the id
// reservation below).

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/agent/AgentEvents.h"
#include "core/agent/AgentLoop.h"
#include "core/agent/RoundPolicy.h"

namespace kwb {

// Thrown at a step boundary when stop() was requested; unwinds the iteration in flight.
struct AgentStopRequested {};

// The boundaries a run passes. Generated is outside any evaluation; Compiled and Verified are inside
// one (the loop never evaluates anything else while a run waits there).
enum class StepBoundary { Generated, Compiled, Verified };

struct IterationHooks {
  std::function<void(const AgentEvent&)> emit;
  std::function<void(AgentState, std::optional<int>, std::string)> setState;
  // Called at each boundary of an agent iteration (not for edits and recovery, which run through); it
  // may block (paused) and may throw AgentStopRequested.
  std::function<void(StepBoundary)> boundary;
  // Called with true before an evaluation starts and false after it ended, however it ended.
  std::function<void(bool)> evaluating;
  const std::atomic<bool>* stop = nullptr;  // also the LLM cancel flag
};

class IterationRunner {
 public:
  // `store`, `options` and `task` must outlive the runner.
  IterationRunner(SessionStore& store, std::shared_ptr<LlmClient> llm,
                  std::shared_ptr<CandidateEvaluator> evaluator, const AgentLoopOptions& options,
                  const Task& task, std::string taskReadme, IterationHooks hooks);

  // Generates and evaluates one agent iteration for `plan`; returns its id (0 when none was made).
  int runAgentIteration(const RoundPlan& plan);
  // Evaluates an engineer's candidate as a new iteration of origin human; returns its id.
  int runEdit(Candidate candidate, std::optional<int> parentId);
  // Evaluates again an iteration whose evaluation a killed process left unfinished.
  void reEvaluate(int iterationId);
  // Marks as stopped the unfinished iterations that cannot be re-evaluated (no complete candidate) and
  // returns the ids of those that can, in ascending order.
  std::vector<int> recoverInterrupted();

 private:
  int reserveIteration(Iteration& it);
  void save(Iteration& it, bool announce = true);
  void generateAndEvaluate(Iteration& it, const RoundPlan& plan, const BuiltPrompt& prompt);
  // Constraint checks, compile, run, verify, profile, verdict; `boundaries` false for edits and
  // recovery (they run through without pausing).
  void evaluateIteration(Iteration& it, const std::vector<Constraint>& constraints, bool boundaries);
  // Copies the profiled case's trace and msprof-style CSVs from the evaluation scratch folder into the
  // iteration's folder and records them in profile.artifacts (label -> path relative to the iteration).
  void keepProfileArtifacts(int id, const std::filesystem::path& dir, ProfileReport& profile);
  void setState(AgentState s, std::optional<int> id, std::string detail = {}) {
    if (hooks_.setState) hooks_.setState(s, id, std::move(detail));
  }
  bool stopping() const { return hooks_.stop && hooks_.stop->load(); }
  void boundary(StepBoundary b) {
    if (hooks_.boundary) hooks_.boundary(b);
  }

  SessionStore& store_;
  std::shared_ptr<LlmClient> llm_;
  std::shared_ptr<CandidateEvaluator> evaluator_;
  const AgentLoopOptions& options_;
  const Task& task_;
  const std::string taskReadme_;
  IterationHooks hooks_;
  std::mutex idMutex_;  // best-of-N workers reserve ids at once
  int reservedNextId_ = 1;
};

}  // namespace kwb
