// SPDX-License-Identifier: MIT
#pragma once
// Runs a suite's samples as Slurm batch jobs (docs/suites.md, "Slurm"): one sbatch per sample that is
// not done, each job running `kwb suite run-sample DIR TASK K` in the shared suite folder. Results come
// back through the file system only: a sample is done when its .done.json marker exists (SuiteLayout.h),
// and the job's exit status file (slurmSampleStatusFile) says how a job without one ended. squeue is
// polled for the jobs' states; a job that ends without its marker because it was killed (scancel,
// preemption, node failure, time limit, any signal) is submitted again, at most maxRetries times, and
// its sample continues its half-done session. stop() (SIGINT/SIGTERM) cancels every job still queued
// or running with scancel; their sessions stay resumable.

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
  int maxRetries = 2;                         // resubmissions per sample after a killed job
  std::chrono::milliseconds pollInterval{2000};
  // Consecutive failed squeue calls after which the run gives up (the controller is gone).
  int maxQueryFailures = 30;
  // The job's command for one sample (kwb suite run-sample DIR TASK K plus the LLM options).
  std::function<std::vector<std::string>(const std::string& task, int sample)> jobCommand;
  // Variables of this process that sbatch must pass on to the jobs although ProcessRunner keeps secrets
  // from children (the LLM key's variable: the job's kwb needs it).
  std::vector<std::string> passEnvironment;
  // Events: "job_submitted", "job_state", "job_retried", "sample_finished", "suite_finished" (with
  // done/total like SuiteRunner's).
  std::function<void(const SuiteEvent&)> onEvent;
};

// DIR/slurm/<task>.sample-<k>.status.json: {"exit": N} written by run-sample as it ends.
std::filesystem::path slurmSampleStatusFile(const std::filesystem::path& suiteDir, const std::string& task,
                                            int sample);
// DIR/slurm/<task>.sample-<k>.try-<n>.out: the job's stdout and stderr.
std::filesystem::path slurmJobOutputFile(const std::filesystem::path& suiteDir, const std::string& task,
                                         int sample, int attempt);

// Whether a job that left the queue without its .done.json ran into a kill rather than a decision of its
// own: no status file (killed before kwb could write it, e.g. SIGKILL, node failure) or an exit status
// of 128 + a signal (stopped by scancel's or the preemption's SIGTERM). Exit 1-4 (a budget, bad input,
// a workbench or LLM failure) are the sample's outcome and not retried.
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
