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

}  // namespace

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
  return {"squeue", "--noheader", "--states=all", "--jobs=" + ids, "--format=%i|%T|%r"};
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
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    std::size_t lead = 0;
    while (lead < line.size() && line[lead] == ' ') ++lead;
    line.erase(0, lead);
    if (line.empty()) continue;
    const auto fields = splitBars(line);
    if (fields.size() != 3 || !isJobId(fields[0]) || fields[1].empty())
      throw std::runtime_error("squeue output line " + std::to_string(number) +
                               " is not ID|STATE|REASON: " + line.substr(0, 200));
    SlurmJobState s;
    s.jobId = fields[0];
    s.state = fields[1].substr(0, fields[1].find(' '));
    s.reason = fields[2];
    s.phase = slurmJobPhase(s.state);
    out[s.jobId] = std::move(s);
  }
  return out;
}

bool squeueFoundNoneOfTheJobs(int exitCode, const std::string& stderrText) {
  return exitCode == 1 && stderrText.find("Invalid job id specified") != std::string::npos;
}

}  // namespace kwb::suite
