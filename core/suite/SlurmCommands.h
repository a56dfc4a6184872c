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

// One batch job; with arraySize > 0 a job array of that many elements, indices 0..arraySize-1, each
// element running the same command (which reads SLURM_ARRAY_TASK_ID to pick its work).
struct SlurmJobRequest {
  std::string jobName;
  std::string partition;  // "" = the cluster's default
  std::string timeLimit;  // sbatch --time syntax ("30", "1:00:00", "1-0"); "" = the partition's
  std::string account;    // "" = the user's default
  std::filesystem::path workDir;
  // The job's stdout and stderr; for an array, a pattern with %a (sbatch replaces it by the index).
  std::filesystem::path outputFile;
  std::vector<std::string> command;  // what the job runs (kwb suite run-sample ...)
  int arraySize = 0;                 // 0: one plain job
  int arrayThrottle = 0;             // elements running at once (the %W of --array); 0: no limit
};

// Elements per submitted array: indices 0..999 fit Slurm's default MaxArraySize (1001); a larger plan
// is split into several arrays.
inline constexpr int kMaxSlurmArraySize = 1000;

// sbatch's --array value for `size` elements with at most `throttle` running at once: "0-4%2" ("0-4"
// without a throttle, "0" for one element). Throws std::invalid_argument on a size outside
// 1..kMaxSlurmArraySize or a negative throttle.
std::string slurmArraySpec(int size, int throttle);

// Why `value` may not be given to sbatch as --partition/--account (a name: letters, digits, '_', '-',
// '.', at most 64) or --time (digits, ':' and '-' only); "" when it may. `option` names it in the error.
std::string slurmOptionProblem(const std::string& option, const std::string& value);

// argv of `sbatch --parsable ...` for `job`: one node, one task (per array element), --array when it
// is an array, the job's command passed with --wrap as a shell-quoted line. Throws std::invalid_argument on a
// bad option (slurmOptionProblem) or an empty command.
std::vector<std::string> sbatchArgv(const SlurmJobRequest& job);

// The job id from `sbatch --parsable` output ("123" or "123;cluster"); nullopt when there is none.
std::optional<std::string> parseSbatchJobId(const std::string& stdoutText);

// argv of the squeue call whose output parseSqueue reads: every state (finished jobs stay listed for
// MinJobAge seconds), one line per array element (--array, so pending elements are not folded into one
// "12_[3-5%2]" line), no header, "%i|%T|%r". An array's job id lists all its elements.
std::vector<std::string> squeueArgv(const std::vector<std::string>& jobIds);

// "12_3": array job 12, index 3; nullopt for a plain job id or anything else.
struct SlurmArrayElementId {
  std::string arrayJobId;
  int index = 0;
  bool operator==(const SlurmArrayElementId&) const = default;
};
std::optional<SlurmArrayElementId> parseSlurmArrayElementId(const std::string& jobId);
std::string slurmArrayElementJobId(const std::string& arrayJobId, int index);

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
// and its text on a line that is not "ID|STATE|REASON" with a numeric id. Array elements are "12_3";
// a folded line of pending elements ("12_[2-3%2]", "12_[1,4-5]", what squeue prints without --array)
// becomes one entry per element.
std::map<std::string, SlurmJobState> parseSqueue(const std::string& text);

// squeue exits 1 with "Invalid job id specified" when none of the jobs asked about is known any more
// (all finished longer than MinJobAge ago): that is an empty listing, not a failure.
bool squeueFoundNoneOfTheJobs(int exitCode, const std::string& stderrText);

// argv of `scancel ID...`: an array job id cancels every element of the array.
std::vector<std::string> scancelArgv(const std::vector<std::string>& jobIds);

// argv of the sacct call whose output parseSacct reads: the jobs' allocations only (no .batch/.extern
// steps), no header, "|"-separated "JobID|State|ExitCode". An array job id lists all its elements.
std::vector<std::string> sacctArgv(const std::vector<std::string>& jobIds);

// One job as the accounting database recorded it.
struct SlurmAccountingRecord {
  std::string jobId;     // "12" or "12_3"
  std::string state;     // without a "CANCELLED by 0" suffix
  std::string exitCode;  // "N:S": the exit status and the signal that ended it
  bool operator==(const SlurmAccountingRecord&) const = default;
};

// Lines of sacctArgv's output by job id (step lines such as "12_3.batch" skipped, folded pending
// elements expanded as in parseSqueue). Throws std::runtime_error naming the line on one that is not
// "ID|STATE|EXIT".
std::map<std::string, SlurmAccountingRecord> parseSacct(const std::string& text);

// sacct on a cluster without slurmdbd (AccountingStorageType=accounting_storage/none) exits 1 with
// "Slurm accounting storage is disabled": there is no accounting to ask, ever, for this run.
bool sacctSaysAccountingDisabled(int exitCode, const std::string& stderrText);

// The exit status of kwb in a job that exited by itself (COMPLETED or FAILED, "N:0" -> N); nullopt when
// the job was ended by Slurm or a signal (CANCELLED, TIMEOUT, PREEMPTED, NODE_FAIL, OUT_OF_MEMORY,
// a non-zero signal), which is what a missing status file means too.
std::optional<int> sacctExitStatus(const SlurmAccountingRecord& record);

}  // namespace kwb::suite
