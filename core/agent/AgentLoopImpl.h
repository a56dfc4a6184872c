#pragma once
// Internals of AgentLoop shared by AgentLoop.cpp (control, thread, deciding) and AgentSteps.cpp
// (generation and evaluation of one iteration). Not an interface.

#include <chrono>
#include <map>
#include <set>

#include "core/agent/AgentLoop.h"
#include "core/base/TempWorkDir.h"

namespace kwb {

// Thrown at a step boundary when stop() was requested; unwinds the step in flight.
struct AgentStopRequested {};

// What one round works from, fixed when the round starts.
struct RoundPlan {
  PromptMode mode = PromptMode::Initial;
  std::optional<int> parentId;
  std::optional<int> lastAttemptId;
  std::string hint;
  std::vector<Constraint> constraints;
  std::optional<double> baselineUs;
};

struct AgentLoop::Impl {
  Impl(SessionStore s, std::shared_ptr<LlmClient> l, std::shared_ptr<CandidateEvaluator> e,
       AgentLoopOptions o);

  // --- fixed after construction
  SessionStore store;
  std::shared_ptr<LlmClient> llm;
  std::shared_ptr<CandidateEvaluator> evaluator;
  AgentLoopOptions options;
  // The default work root, created by the loop: removed with it unless options.keepWork. A root the
  // caller passed is the caller's and stays (only the iteration folders in it are removed).
  TempWorkDir ownedWorkRoot;
  Task task;  // the session's task, with its files (reference, README) found again via taskPath
  std::string taskReadme;

  // --- control, guarded by mutex
  mutable std::mutex mutex;
  std::condition_variable cv;
  std::thread thread;
  bool threadRunning = false;
  bool threadDone = false;
  std::atomic<bool> stopRequested{false};  // also the LLM cancel flag
  bool pauseRequested = false;
  int stepGrants = 0;
  bool finished = false;  // limits reached
  std::string finishReason;
  // Start or Step after the loop finished: the engineer asked for another round explicitly, so the
  // next round runs even when a budget is already spent (the limits are checked again after it).
  bool oneMoreRound = false;
  AgentState state = AgentState::Idle;
  std::deque<std::pair<Candidate, std::optional<int>>> edits;
  std::string hint;
  std::optional<int> rollbackTarget;
  std::optional<int> head;         // what the next round builds on
  std::optional<int> lastAttempt;  // the latest attempt not kept (its feedback goes into the next prompt)
  int roundsWithoutImprovement = 0;
  int reservedNextId = 1;
  std::chrono::steady_clock::time_point startedAt{};
  std::vector<int> interrupted;  // iterations to re-evaluate after a crash (candidate saved)

  // --- observers
  std::mutex observerMutex;
  std::vector<AgentObserver*> observers;

  // AgentLoop.cpp
  void emit(const AgentEvent& e);
  void setState(AgentState s, std::optional<int> iterationId = std::nullopt, std::string detail = {});
  // A step boundary: throws AgentStopRequested on stop; waits while paused (evaluating submitted edits
  // meanwhile); consumes a step grant.
  void checkpoint();
  void reopenAfterFinish();  // caller holds mutex
  void threadMain();
  void runRound();
  RoundPlan planRound();
  void decide(const RoundPlan& plan, const std::vector<int>& ids);
  bool limitsReached(std::string& why);
  void recoverInterrupted();
  void rebuildHead();
  std::optional<double> baselineUs(const Session& s) const;
  bool takeEdit(std::pair<Candidate, std::optional<int>>& out);

  // AgentSteps.cpp
  int reserveIteration(Iteration& it);
  void save(Iteration& it, bool announce = true);
  // Generates and evaluates one agent iteration of the round; returns its id (0 when none was made).
  int runAgentIteration(const RoundPlan& plan);
  void generateAndEvaluate(Iteration& it, const RoundPlan& plan, const BuiltPrompt& prompt);
  void runEdit(Candidate candidate, std::optional<int> parentId);
  // Constraint checks, compile, run, verify, profile, verdict; `boundaries` false for edits and
  // recovery (they run through without pausing).
  void evaluateIteration(Iteration& it, const std::vector<Constraint>& constraints, bool boundaries);
  // Copies the profiled case's trace and msprof-style CSVs from the evaluation scratch folder into the
  // iteration's folder and records them in profile.artifacts (label -> path relative to the iteration).
  void keepProfileArtifacts(int id, const std::filesystem::path& dir, ProfileReport& profile);
};

// Estimated time of a passing iteration (profile totalUs), nullopt without a profile.
std::optional<double> iterationTimeUs(const Iteration& it);

}  // namespace kwb
