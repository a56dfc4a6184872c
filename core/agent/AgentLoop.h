// SPDX-License-Identifier: MIT
#pragma once
// The steerable agent loop: generating -> compiling -> running -> verifying -> profiling -> deciding, on
// its own thread, over a session directory (SessionStore). Repairs until a candidate passes, then
// optimises for speed against the task's baseline (or the first passing candidate) until the target
// speedup, the iteration/token/time budget, or `patience` rounds without improvement (SessionLimits).
// Best-of-N: `candidatesPerRound` candidates per round, generated and evaluated in parallel.
//
// Control (any thread, never blocks on the loop's work):
//   start()    launches the loop thread (or resumes a paused one).
//   pause()    takes effect at the next step boundary (between generation and compilation, before the
//              run, after verification and profiling, between rounds); the step in flight finishes.
//   resume()   continues after pause() or step().
//   step()     runs one step then pauses again (from Paused: one more step; while running: pause after
//              the current step; before start(): starts paused with one step granted).
//   stop()     ends the loop: cancels the in-flight LLM stream at once, abandons the evaluation at its
//              next phase boundary (a sandboxed run in progress ends by itself or by its time limit),
//              marks the iteration in flight `stopped`. Final; pause is not stop.
//   queueHint  text the next prompt includes (consumed by the next generated iteration).
//   submitEdit an engineer's candidate becomes an iteration of origin `human`, evaluated like any other.
//              Edits are queued and taken at step boundaries outside any evaluation only: between
//              rounds, or while paused after a generation (at once). One submitted while an evaluation
//              is in flight (or paused inside one) is evaluated after that evaluation, never inside it.
//   pin/unpinConstraint: rules go into prompts; locked regions and fixed parameters are enforced: a
//              candidate breaking one is `rejected` with a `policy-violation` diagnostic and not run.
//   rollbackTo the next round starts a new branch from that iteration; nothing is deleted.
//   accept     exports the iteration as a CANN kernel-launch project and records it as accepted.
//
// Every control call that may start the loop (start, step, submitEdit) goes through one launch path
// under the loop's lock: the worker thread is started at most once in a loop's life.
//
// Persistence: every iteration is saved through SessionStore when it starts and after each step
// (generation, compilation start, run start, verification, profiling, verdict), so a killed process
// loses at most the step in flight. Constructing an AgentLoop on a reopened session re-evaluates the
// iterations that were interrupted after their candidate was saved and marks the others stopped.
//
// Events: observers receive AgentEvent values on the loop thread or, with best-of-N, on its worker
// threads; deliveries are serialised (an observer never sees two events at once). Observers MUST be
// quick and must not block or call back into the loop's control API from the callback (queue the event
// elsewhere, e.g. onto the GUI thread). accept() and pin/unpin emit their events on the caller's thread.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/agent/AgentEvents.h"
#include "core/agent/CandidateEvaluator.h"
#include "core/agent/PromptBuilder.h"
#include "core/llm/LlmClient.h"
#include "core/store/SessionStore.h"

namespace kwb {

struct AgentLoopOptions {
  PromptResources prompts;  // empty contract: loadPromptResources() at construction
  PromptBudget budget;
  std::filesystem::path
      workRoot;  // evaluation scratch (default: a fresh mkdtemp folder, removed with the loop)
  std::filesystem::path cacheDir;  // build cache (default: defaultEvalCacheDir(), private and verified)
  // Keep each iteration's work folder (and the default work root) after its evaluation. Off: what the
  // session keeps (docs/session-format.md) is copied into the session first, the rest is removed.
  bool keepWork = false;
  std::optional<std::uint64_t> seed;  // fixed verification seed (default: fresh per evaluation)
  bool exitWhenFinished = true;       // false (GUI): stay alive after the limits, for edits/resume
  int defaultPatience = 3;            // when SessionLimits.patience is unset
  int defaultMaxIterations = 20;      // when no iteration/token/time budget is set at all
  double minImprovement = 0.02;       // an optimisation round must be this much faster (2 %) to count
  std::string candidateFileName = "kernel.cpp";
  // On a reopened session, the iteration the first round builds on (the GUI passes the one the engineer
  // left selected); ignored unless it finished with a candidate. See RoundPolicy::initialHead.
  std::optional<int> resumeFrom;
};

class AgentLoop {
 public:
  // The store must be writable. Throws std::invalid_argument when it is not, or when llm/evaluator are
  // null; std::runtime_error when the prompt resources cannot be loaded.
  AgentLoop(SessionStore store, std::shared_ptr<LlmClient> llm, std::shared_ptr<CandidateEvaluator> evaluator,
            AgentLoopOptions options = {});
  ~AgentLoop();  // stop() and join
  AgentLoop(const AgentLoop&) = delete;
  AgentLoop& operator=(const AgentLoop&) = delete;

  // Observers are not owned; remove them before destroying them.
  void addObserver(AgentObserver* observer);
  void removeObserver(AgentObserver* observer);

  void start();
  void pause();
  void resume();
  void step();
  void stop();
  void queueHint(const std::string& text);
  // A human edit (origin human). A candidate with origin Imported (importOperatorProject) keeps it:
  // submitted before start(), it is the session's iteration 1 with origin imported.
  void submitEdit(Candidate candidate, std::optional<int> parentId);
  // Assigns the id (returned) and persists; emits ConstraintsChanged.
  int pinConstraint(Constraint constraint);
  // False when no constraint has that id.
  bool unpinConstraint(int constraintId);
  // Throws std::invalid_argument for an unknown iteration.
  void rollbackTo(int iterationId);
  // Exports to exportDir (created; must be empty or absent) and records the acceptance. Throws
  // std::invalid_argument when the iteration is unknown or did not pass, std::runtime_error on I/O.
  std::filesystem::path accept(int iterationId, const std::filesystem::path& exportDir);

  Session snapshot() const;
  AgentState state() const;
  // Why the loop finished ("target speedup 2.00x reached", "iteration budget (8) reached", "stopped", an
  // LLM error); empty while it runs.
  std::string finishReason() const;
  // The passing iteration with the lowest estimated time (ties: the earliest), if any.
  std::optional<int> bestIteration() const;

  // How many times the worker thread was started: 0 or 1 (for tests and diagnostics).
  int workerLaunches() const;

  // Blocks until the loop thread has ended (Finished with exitWhenFinished, or Stopped). False on timeout.
  bool waitUntilDone(std::chrono::milliseconds timeout = std::chrono::hours(24));
  // Blocks until state() == s. False on timeout.
  bool waitForState(AgentState s, std::chrono::milliseconds timeout);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace kwb
