// SPDX-License-Identifier: MIT
#pragma once
// Runs a suite (docs/suites.md): K independent agent sessions per task, on `workers` threads, each
// sample a normal session under the suite folder (SuiteLayout.h). Resumable after any kill: a sample
// whose loop ended by itself has its .done.json and is not run again; a sample with a session but no
// marker is reopened and its loop continues it (AgentLoop's own resume: interrupted iterations are
// re-evaluated or marked stopped, the next round builds on the best iteration, AgentLoopOptions::
// resumeFrom); a sample without a session starts one. Before the samples, each task's expert candidate
// (expert_candidate.cpp) is evaluated once for the fast_p baseline, also kept in the folder.
//
// Budgets (SuiteBudgets) are checked before a sample starts and while it runs: a sample over a budget
// is stopped like `kwb run` on SIGINT (its session stays resumable) and the samples it would exceed
// are not started. Events go to one callback, serialised, from the worker threads.

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/agent/AgentLoop.h"
#include "core/agent/CandidateEvaluator.h"
#include "core/llm/LlmClient.h"
#include "core/suite/SuiteLayout.h"

namespace kwb::suite {

// kind: "suite_started", "expert_measured", "sample_started", "iteration_finished", "sample_finished",
// "sample_skipped", "suite_finished"; data: the event's fields (docs/suites.md, "Events"); every event
// carries "done", "total" and "eta_s" (null until a sample has finished in this run).
struct SuiteEvent {
  std::string kind;
  nlohmann::json data;
};

struct SuiteRunOptions {
  int workers = 1;
  bool measureExpert = true;
  // One client and one evaluator per sample (clients keep per-conversation state).
  std::function<std::shared_ptr<LlmClient>()> makeLlm;
  std::function<std::shared_ptr<CandidateEvaluator>(const Task&)> makeEvaluator;
  AgentLoopOptions loop;  // seed, work root, cache folder, ...; resumeFrom is set per sample
  std::function<void(const SuiteEvent&)> onEvent;
  // Which samples this runner runs: all of the plan's (the local executor), none (runSamples false: the
  // Slurm executor measures the experts here and leaves the samples to its jobs), or one (`kwb suite
  // run-sample`, inside a job). The summary still counts every planned sample.
  bool runSamples = true;
  std::optional<std::pair<std::string, int>> onlySample;  // task name, 1-based sample
};

struct SuiteRunSummary {
  int total = 0;     // planned samples
  int finished = 0;  // samples whose loop ended by itself (this run or before)
  int skipped = 0;   // not started or stopped for a budget
  int failed = 0;    // the workbench failed (damaged session, LLM endpoint, internal error)
  bool stopped = false;
  std::vector<std::string> errors;
};

class SuiteRunner {
 public:
  // The plan must already be in suiteDir (writeSuitePlan). Throws std::invalid_argument without the
  // factories.
  SuiteRunner(std::filesystem::path suiteDir, SuitePlan plan, SuiteRunOptions options);
  ~SuiteRunner();
  SuiteRunner(const SuiteRunner&) = delete;
  SuiteRunner& operator=(const SuiteRunner&) = delete;

  // Runs to the end (or until stop()); blocking.
  SuiteRunSummary run();
  // Any thread (a signal watcher): no new sample starts, the running ones stop at once (resumable).
  void stop();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace kwb::suite
