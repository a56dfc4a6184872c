// SPDX-License-Identifier: MIT
#pragma once
// Runs a suite's samples as one Slurm job array (docs/suites.md, "Slurm"): the samples that are not
// done are listed in a manifest (SlurmArrayManifest.h) and submitted with one
// `sbatch --array=0-(N-1)%W`, element i running `kwb suite run-sample DIR --manifest FILE`, which runs
// the manifest's i-th sample in the shared suite folder. Results come back through the file system: a
// sample is done when its .done.json marker exists (SuiteLayout.h), and the element's exit status file
// (slurmSampleStatusFile) says how one without it ended. squeue is polled for the state of each element
// ("<array job id>_<index>"); once an element has ended, sacct gives its recorded final state where the
// cluster keeps accounting (without slurmdbd sacct says accounting is disabled, and squeue's state and
// the files are all there is). Elements that ended without their marker because they were killed
// (scancel, preemption, node failure, time limit, any signal) are submitted again together as a new
// array of just those samples, at most maxRetries times each, and their samples continue their
// half-done sessions. stop() (SIGINT/SIGTERM) cancels the arrays still running (scancel <array job
// id>); their sessions stay resumable.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/suite/SlurmCommands.h"
#include "core/suite/SuiteRunner.h"

namespace kwb::suite {

struct SlurmExecutorOptions {
  std::string partition, timeLimit, account;  // checked with slurmOptionProblem
  int maxRetries = 2;                         // resubmissions per sample after a killed element
  int maxRunning = 0;                         // elements of an array running at once (0: no limit)
  std::chrono::milliseconds pollInterval{2000};
  // Consecutive failed squeue calls after which the run gives up (the controller is gone).
  int maxQueryFailures = 30;
  // The command of every element of the array whose manifest is given (kwb suite run-sample DIR
  // --manifest FILE plus the LLM options).
  std::function<std::vector<std::string>(const std::filesystem::path& manifest)> jobCommand;
  // Variables of this process that sbatch must pass on to the jobs although ProcessRunner keeps secrets
  // from children (the LLM key's variable: the job's kwb needs it).
  std::vector<std::string> passEnvironment;
  // Events: "suite_started", "array_submitted", "job_submitted" (one per element), "job_state",
  // "job_retried", "sample_finished", "suite_finished" (with done/total like SuiteRunner's).
  std::function<void(const SuiteEvent&)> onEvent;
};

// DIR/slurm/<task>.sample-<k>.status.json: {"exit": N} written by run-sample as it ends.
std::filesystem::path slurmSampleStatusFile(const std::filesystem::path& suiteDir, const std::string& task,
                                            int sample);
// Whether an element that left the queue without its .done.json ran into a kill rather than a decision
// of its own: no exit status (no status file and none in sacct: killed before kwb could write it, e.g.
// SIGKILL, node failure) or 128 + a signal (stopped by scancel's or the preemption's SIGTERM). Exit 1-4
// (a budget, bad input, a workbench or LLM failure) are the sample's outcome and not retried.
bool slurmJobWasKilled(std::optional<int> exitStatus);

class SlurmExecutor {
 public:
  // Throws std::invalid_argument on a bad option or without jobCommand.
  SlurmExecutor(std::filesystem::path suiteDir, SuitePlan plan, SlurmExecutorOptions options);
  ~SlurmExecutor();
  SlurmExecutor(const SlurmExecutor&) = delete;
  SlurmExecutor& operator=(const SlurmExecutor&) = delete;

  // Submits, polls and retries until every sample is done, given up, or stop(); blocking.
  SuiteRunSummary run();
  // Any thread: no more submissions, every job of this run is cancelled (scancel), run() returns.
  void stop();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace kwb::suite
