// SPDX-License-Identifier: MIT
#include "core/suite/SlurmCommands.h"

#include <cctype>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/process/ProcessRunner.h"

namespace kwb::suite {

namespace {

bool isJobId(const std::string& s) {
  // "123", or an array task "123_4"
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  bool underscore = false;
  for (char c : s) {
    if (c == '_' && !underscore) {
      underscore = true;
    } else if (!std::isdigit(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  return s.back() != '_';
}

std::vector<std::string> splitBars(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == '|') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::optional<int> smallNumber(const std::string& s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  return std::stoi(s);
}

// "12", "12_3", or the folded pending elements "12_[2-3%2]" / "12_[1,4-5]" as one id per element;
// empty when `field` is none of these.
std::vector<std::string> expandJobIds(const std::string& field) {
  if (isJobId(field)) return {field};
  const auto open = field.find("_[");
  if (open == std::string::npos || field.back() != ']' || !isJobId(field.substr(0, open))) return {};
  const std::string arrayJobId = field.substr(0, open);
  std::string ranges = field.substr(open + 2, field.size() - open - 3);
  ranges = ranges.substr(0, ranges.find('%'));  // the throttle
  std::vector<std::string> ids;
  std::istringstream in(ranges);
  std::string range;
  while (std::getline(in, range, ',')) {
    const auto dash = range.find('-');
    const auto first = smallNumber(range.substr(0, dash));
    const auto last = dash == std::string::npos ? first : smallNumber(range.substr(dash + 1));
    // A folded line covers at most one array (kMaxSlurmArraySize elements by this executor, Slurm's
    // MaxArraySize elsewhere); a wider range is not squeue's output.
    if (!first || !last || *last < *first || *last - *first > 1000000) return {};
    for (int i = *first; i <= *last; ++i) ids.push_back(slurmArrayElementJobId(arrayJobId, i));
  }
  return ids;
}

// Trailing CR/spaces and leading spaces removed.
std::string trimmed(std::string line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  std::size_t lead = 0;
  while (lead < line.size() && line[lead] == ' ') ++lead;
  return line.substr(lead);
}

}  // namespace

std::string slurmArraySpec(int size, int throttle) {
  if (size < 1 || size > kMaxSlurmArraySize)
    throw std::invalid_argument("a Slurm job array of " + std::to_string(size) + " elements (1 to " +
                                std::to_string(kMaxSlurmArraySize) + ")");
  if (throttle < 0) throw std::invalid_argument("a negative job array throttle");
  std::string spec = size == 1 ? "0" : "0-" + std::to_string(size - 1);
  if (throttle > 0) spec += "%" + std::to_string(throttle);
  return spec;
}

std::optional<SlurmArrayElementId> parseSlurmArrayElementId(const std::string& jobId) {
  const auto underscore = jobId.find('_');
  if (underscore == std::string::npos || !isJobId(jobId)) return std::nullopt;
  const auto index = smallNumber(jobId.substr(underscore + 1));
  if (!index) return std::nullopt;
  return SlurmArrayElementId{jobId.substr(0, underscore), *index};
}

std::string slurmArrayElementJobId(const std::string& arrayJobId, int index) {
  return arrayJobId + "_" + std::to_string(index);
}

std::string slurmOptionProblem(const std::string& option, const std::string& value) {
  if (value.empty()) return "";
  if (value.size() > 64) return option + " is longer than 64 characters";
  const bool isTime = option == "--time";
  for (char c : value) {
    const bool ok = isTime
                        ? (std::isdigit(static_cast<unsigned char>(c)) || c == ':' || c == '-')
                        : (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.');
    if (!ok)
      // An error message, built once when the input is refused
      // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
      return option + " '" + value + "' has the character '" + std::string(1, c) +
             (isTime ? "'; use minutes, MM:SS, HH:MM:SS or D-HH[:MM[:SS]]"
                     : "'; a Slurm name has letters, digits, '_', '-' and '.' only");
  }
  if (value.front() == '-') return option + " '" + value + "' starts with '-'";
  return "";
}

std::vector<std::string> sbatchArgv(const SlurmJobRequest& job) {
  for (const auto& [option, value] :
       {std::pair<std::string, const std::string&>{"--partition", job.partition},
        {"--time", job.timeLimit},
        {"--account", job.account}})
    if (auto why = slurmOptionProblem(option, value); !why.empty()) throw std::invalid_argument(why);
  if (job.command.empty()) throw std::invalid_argument("a Slurm job needs a command");
  std::vector<std::string> argv{"sbatch", "--parsable", "--job-name=" + job.jobName, "--nodes=1",
                                "--ntasks=1"};
  if (job.arraySize > 0) argv.push_back("--array=" + slurmArraySpec(job.arraySize, job.arrayThrottle));
  if (!job.partition.empty()) argv.push_back("--partition=" + job.partition);
  if (!job.timeLimit.empty()) argv.push_back("--time=" + job.timeLimit);
  if (!job.account.empty()) argv.push_back("--account=" + job.account);
  argv.push_back("--chdir=" + job.workDir.string());
  argv.push_back("--output=" + job.outputFile.string());
  // The job gets SIGTERM on scancel or preemption; kwb stops the sample cleanly on it (resumable).
  std::string line = "exec";
  for (const auto& a : job.command) line += " " + shellQuote(a);
  argv.push_back("--wrap=" + line);
  return argv;
}

std::optional<std::string> parseSbatchJobId(const std::string& stdoutText) {
  std::istringstream in(stdoutText);
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    const std::string id = line.substr(0, line.find(';'));
    if (isJobId(id)) return id;
  }
  return std::nullopt;
}

std::vector<std::string> squeueArgv(const std::vector<std::string>& jobIds) {
  std::string ids;
  for (const auto& id : jobIds) ids += (ids.empty() ? "" : ",") + id;
  return {"squeue", "--noheader", "--array", "--states=all", "--jobs=" + ids, "--format=%i|%T|%r"};
}

SlurmJobPhase slurmJobPhase(const std::string& state) {
  static const std::set<std::string> running{"RUNNING", "COMPLETING", "STAGE_OUT", "SIGNALING"};
  static const std::set<std::string> queued{"PENDING",     "CONFIGURING",   "REQUEUED",
                                            "REQUEUE_FED", "REQUEUE_HOLD",  "RESIZING",
                                            "SUSPENDED",   "RESV_DEL_HOLD", "STOPPED"};
  if (running.count(state)) return SlurmJobPhase::Running;
  if (queued.count(state)) return SlurmJobPhase::Queued;
  return SlurmJobPhase::Finished;
}

std::map<std::string, SlurmJobState> parseSqueue(const std::string& text) {
  std::map<std::string, SlurmJobState> out;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    line = trimmed(line);
    if (line.empty()) continue;
    const auto fields = splitBars(line);
    const auto ids = fields.size() == 3 ? expandJobIds(fields[0]) : std::vector<std::string>{};
    if (ids.empty() || fields[1].empty())
      throw std::runtime_error("squeue output line " + std::to_string(number) +
                               " is not ID|STATE|REASON: " + line.substr(0, 200));
    for (const auto& id : ids) {
      SlurmJobState s;
      s.jobId = id;
      s.state = fields[1].substr(0, fields[1].find(' '));
      s.reason = fields[2];
      s.phase = slurmJobPhase(s.state);
      out[s.jobId] = std::move(s);
    }
  }
  return out;
}

bool squeueFoundNoneOfTheJobs(int exitCode, const std::string& stderrText) {
  return exitCode == 1 && stderrText.find("Invalid job id specified") != std::string::npos;
}

std::vector<std::string> scancelArgv(const std::vector<std::string>& jobIds) {
  std::vector<std::string> argv{"scancel"};
  argv.insert(argv.end(), jobIds.begin(), jobIds.end());
  return argv;
}

std::vector<std::string> sacctArgv(const std::vector<std::string>& jobIds) {
  std::string ids;
  for (const auto& id : jobIds) ids += (ids.empty() ? "" : ",") + id;
  return {"sacct",         "--noheader",    "--parsable2",
          "--allocations", "--jobs=" + ids, "--format=JobID,State,ExitCode"};
}

std::map<std::string, SlurmAccountingRecord> parseSacct(const std::string& text) {
  std::map<std::string, SlurmAccountingRecord> out;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    line = trimmed(line);
    if (line.empty()) continue;
    const auto fields = splitBars(line);
    // A step ("12_3.batch", "12.extern") says nothing the allocation's line does not.
    if (fields.size() == 3 && fields[0].find('.') != std::string::npos &&
        !expandJobIds(fields[0].substr(0, fields[0].find('.'))).empty())
      continue;
    const auto ids = fields.size() == 3 ? expandJobIds(fields[0]) : std::vector<std::string>{};
    if (ids.empty() || fields[1].empty())
      throw std::runtime_error("sacct output line " + std::to_string(number) +
                               " is not JobID|State|ExitCode: " + line.substr(0, 200));
    for (const auto& id : ids) out[id] = {id, fields[1].substr(0, fields[1].find(' ')), fields[2]};
  }
  return out;
}

bool sacctSaysAccountingDisabled(int exitCode, const std::string& stderrText) {
  return exitCode != 0 && stderrText.find("accounting storage is disabled") != std::string::npos;
}

std::optional<int> sacctExitStatus(const SlurmAccountingRecord& record) {
  if (record.state != "COMPLETED" && record.state != "FAILED") return std::nullopt;
  const auto colon = record.exitCode.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const auto status = smallNumber(record.exitCode.substr(0, colon));
  const auto signal = smallNumber(record.exitCode.substr(colon + 1));
  if (!status || !signal || *signal != 0) return std::nullopt;
  return status;
}

}  // namespace kwb::suite
