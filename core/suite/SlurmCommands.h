// SPDX-License-Identifier: MIT
#pragma once
// The Slurm executor's command lines and the parsing of what Slurm prints (docs/suites.md, "Slurm"):
// pure functions, so the exact sbatch arguments and the state parsing are unit-tested on output captured
// from a real slurmctld (tests/fixtures/slurm/).

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kwb::suite {

// One sample as one batch job.
struct SlurmJobRequest {
  std::string jobName;
  std::string partition;  // "" = the cluster's default
  std::string timeLimit;  // sbatch --time syntax ("30", "1:00:00", "1-0"); "" = the partition's
  std::string account;    // "" = the user's default
  std::filesystem::path workDir;
  std::filesystem::path outputFile;  // the job's stdout and stderr
  std::vector<std::string> command;  // what the job runs (kwb suite run-sample ...)
};

// Why `value` may not be given to sbatch as --partition/--account (a name: letters, digits, '_', '-',
// '.', at most 64) or --time (digits, ':' and '-' only); "" when it may. `option` names it in the error.
std::string slurmOptionProblem(const std::string& option, const std::string& value);

// argv of `sbatch --parsable ...` for `job`: one node, one task, the job's command passed with --wrap
// as a shell-quoted line. Throws std::invalid_argument on a bad option (slurmOptionProblem) or an empty
// command.
std::vector<std::string> sbatchArgv(const SlurmJobRequest& job);

// The job id from `sbatch --parsable` output ("123" or "123;cluster"); nullopt when there is none.
std::optional<std::string> parseSbatchJobId(const std::string& stdoutText);

// argv of the squeue call whose output parseSqueue reads: every state (finished jobs stay listed for
// MinJobAge seconds), no header, "%i|%T|%r".
std::vector<std::string> squeueArgv(const std::vector<std::string>& jobIds);

enum class SlurmJobPhase {
  Queued,    // PENDING, CONFIGURING, REQUEUED, RESIZING, SUSPENDED, ...
  Running,   // RUNNING, COMPLETING, STAGE_OUT, SIGNALING
  Finished,  // COMPLETED, FAILED, CANCELLED, TIMEOUT, PREEMPTED, NODE_FAIL, BOOT_FAIL, OUT_OF_MEMORY, ...
};

struct SlurmJobState {
  std::string jobId;
  std::string state;  // as Slurm spells it, without a "CANCELLED by 0" suffix
  std::string reason;
  SlurmJobPhase phase = SlurmJobPhase::Queued;
  bool operator==(const SlurmJobState&) const = default;
};

SlurmJobPhase slurmJobPhase(const std::string& state);

// Lines of `squeue -h -t all -o %i|%T|%r` by job id. Throws std::runtime_error naming the line number
// and its text on a line that is not "ID|STATE|REASON" with a numeric id (array tasks "12_3" too).
std::map<std::string, SlurmJobState> parseSqueue(const std::string& text);

// squeue exits 1 with "Invalid job id specified" when none of the jobs asked about is known any more
// (all finished longer than MinJobAge ago): that is an empty listing, not a failure.
bool squeueFoundNoneOfTheJobs(int exitCode, const std::string& stderrText);

}  // namespace kwb::suite
