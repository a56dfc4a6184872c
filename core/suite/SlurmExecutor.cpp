// SPDX-License-Identifier: MIT
#include "core/suite/SlurmExecutor.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/process/ProcessRunner.h"
#include "core/suite/SuiteLayout.h"

namespace kwb::suite {

namespace fs = std::filesystem;

namespace {

constexpr auto kSlurmCommandTimeout = std::chrono::seconds(60);

struct TrackedSample {
  std::string task;
  int sample = 0;
  std::string jobId;  // "" while not submitted
  int attempt = 0;    // 1 = first submission
  std::string lastState;
  bool closed = false;  // done, given up, or not retried
};

// {"exit": N} from the status file; nullopt when there is none or it does not hold an integer.
std::optional<int> readExitStatus(const fs::path& file) {
  try {
    auto doc = readJsonFile(file);
    if (doc && doc->is_object() && doc->contains("exit") && (*doc)["exit"].is_number_integer())
      return (*doc)["exit"].get<int>();
  } catch (const std::exception&) {
    // A damaged status file says as much as none: the job did not end cleanly.
  }
  return std::nullopt;
}

}  // namespace

fs::path slurmSampleStatusFile(const fs::path& suiteDir, const std::string& task, int sample) {
  return suiteDir / "slurm" / (task + ".sample-" + std::to_string(sample) + ".status.json");
}

fs::path slurmJobOutputFile(const fs::path& suiteDir, const std::string& task, int sample, int attempt) {
  return suiteDir / "slurm" /
         (task + ".sample-" + std::to_string(sample) + ".try-" + std::to_string(attempt) + ".out");
}

bool slurmJobWasKilled(std::optional<int> exitStatus) {
  return !exitStatus || *exitStatus >= 128;
}

struct SlurmExecutor::Impl {
  fs::path dir;
  SuitePlan plan;
  SlurmExecutorOptions opt;
  std::atomic<bool> stopRequested{false};
  std::mutex mu;  // samples, summary
  std::vector<TrackedSample> samples;
  SuiteRunSummary summary;
  std::mutex eventMu;

  void emit(const std::string& kind, nlohmann::json data) {
    {
      std::lock_guard lock(mu);
      data["done"] = summary.finished;
      data["total"] = summary.total;
      data["skipped"] = summary.skipped;
      data["failed"] = summary.failed;
      data["eta_s"] = nullptr;
    }
    if (!opt.onEvent) return;
    std::lock_guard lock(eventMu);
    opt.onEvent({kind, std::move(data)});
  }

  ProcessResult runSlurm(const std::vector<std::string>& argv) const {
    ProcessSpec spec;
    spec.argv = argv;
    spec.timeout = kSlurmCommandTimeout;
    spec.outputCap = std::size_t{4} * 1024 * 1024;
    for (const auto& name : opt.passEnvironment)
      if (const char* value = name.empty() ? nullptr : std::getenv(name.c_str()))
        spec.environment[name] = value;
    return ProcessRunner().run(spec);
  }

  // Submits `s` once more; false (and the sample closed as failed) when sbatch refuses.
  bool submit(TrackedSample& s) {
    ++s.attempt;
    std::error_code ec;
    fs::remove(slurmSampleStatusFile(dir, s.task, s.sample), ec);
    SlurmJobRequest job;
    job.jobName = "kwb-" + s.task + "-" + std::to_string(s.sample);
    job.partition = opt.partition;
    job.timeLimit = opt.timeLimit;
    job.account = opt.account;
    job.workDir = fs::absolute(dir);
    job.outputFile = fs::absolute(slurmJobOutputFile(dir, s.task, s.sample, s.attempt));
    job.command = opt.jobCommand(s.task, s.sample);
    const ProcessResult r = runSlurm(sbatchArgv(job));
    const auto id = r.ok() ? parseSbatchJobId(r.stdoutText) : std::nullopt;
    if (!id) {
      const std::string why = "sbatch failed (" + r.describeOutcome() + "): " + r.stderrText.substr(0, 2000);
      {
        std::lock_guard lock(mu);
        s.closed = true;
        ++summary.failed;
        summary.errors.push_back(s.task + " sample " + std::to_string(s.sample) + ": " + why);
      }
      emit("sample_finished", {{"task", s.task}, {"sample", s.sample}, {"status", "failed"}, {"error", why}});
      return false;
    }
    s.jobId = *id;
    s.lastState = "SUBMITTED";
    emit("job_submitted", {{"task", s.task},
                           {"sample", s.sample},
                           {"job_id", s.jobId},
                           {"attempt", s.attempt},
                           {"output", job.outputFile.string()}});
    return true;
  }

  // A job that left the queue: done, retried, or closed with the sample's own outcome.
  void jobEnded(TrackedSample& s, const std::string& state) {
    std::error_code ec;
    if (fs::exists(sampleDoneFile(dir, s.task, s.sample), ec)) {
      {
        std::lock_guard lock(mu);
        s.closed = true;
        ++summary.finished;
      }
      emit("sample_finished", {{"task", s.task},
                               {"sample", s.sample},
                               {"status", "finished"},
                               {"job_id", s.jobId},
                               {"state", state}});
      return;
    }
    const auto exitStatus = readExitStatus(slurmSampleStatusFile(dir, s.task, s.sample));
    if (!stopRequested && slurmJobWasKilled(exitStatus) && s.attempt <= opt.maxRetries) {
      emit("job_retried", {{"task", s.task},
                           {"sample", s.sample},
                           {"job_id", s.jobId},
                           {"state", state},
                           {"attempt", s.attempt + 1}});
      submit(s);
      return;
    }
    std::string status;
    std::string why;
    if (stopRequested) {
      status = "stopped";
    } else if (slurmJobWasKilled(exitStatus)) {
      status = "failed";
      why = "job " + s.jobId + " ended " + state + " without finishing, " + std::to_string(s.attempt) +
            " attempts; see " + slurmJobOutputFile(dir, s.task, s.sample, s.attempt).string();
    } else if (*exitStatus == 1) {
      status = "budget";
    } else {
      status = "failed";
      why = "kwb suite run-sample exited " + std::to_string(*exitStatus) + " in job " + s.jobId + "; see " +
            slurmJobOutputFile(dir, s.task, s.sample, s.attempt).string();
    }
    {
      std::lock_guard lock(mu);
      s.closed = true;
      if (status == "budget") ++summary.skipped;
      if (status == "failed") {
        ++summary.failed;
        summary.errors.push_back(s.task + " sample " + std::to_string(s.sample) + ": " + why);
      }
    }
    emit("sample_finished", {{"task", s.task},
                             {"sample", s.sample},
                             {"status", status},
                             {"job_id", s.jobId},
                             {"state", state},
                             {"error", why}});
  }

  void cancelOpenJobs() {
    std::vector<std::string> ids;
    {
      std::lock_guard lock(mu);
      for (const auto& s : samples)
        if (!s.closed && !s.jobId.empty()) ids.push_back(s.jobId);
    }
    if (ids.empty()) return;
    std::vector<std::string> argv{"scancel"};
    argv.insert(argv.end(), ids.begin(), ids.end());
    const ProcessResult r = runSlurm(argv);
    if (!r.ok()) {
      std::lock_guard lock(mu);
      summary.errors.push_back("scancel failed (" + r.describeOutcome() +
                               "): " + r.stderrText.substr(0, 2000));
    }
  }
};

SlurmExecutor::SlurmExecutor(fs::path suiteDir, SuitePlan plan, SlurmExecutorOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (!options.jobCommand) throw std::invalid_argument("the Slurm executor needs the job command");
  for (const auto& [option, value] :
       {std::pair<std::string, const std::string&>{"--partition", options.partition},
        {"--time", options.timeLimit},
        {"--account", options.account}})
    if (auto why = slurmOptionProblem(option, value); !why.empty()) throw std::invalid_argument(why);
  impl_->dir = std::move(suiteDir);
  impl_->plan = std::move(plan);
  impl_->opt = std::move(options);
}

SlurmExecutor::~SlurmExecutor() = default;

void SlurmExecutor::stop() {
  impl_->stopRequested = true;
}

SuiteRunSummary SlurmExecutor::run() {
  Impl& m = *impl_;
  fs::create_directories(m.dir / "slurm");
  int alreadyDone = 0;
  for (const auto& t : m.plan.tasks)
    for (int k = 1; k <= m.plan.samples; ++k) {
      std::error_code ec;
      if (fs::exists(sampleDoneFile(m.dir, t.name, k), ec))
        ++alreadyDone;
      else
        m.samples.push_back({t.name, k});
    }
  m.summary.total = static_cast<int>(m.plan.tasks.size()) * m.plan.samples;
  m.summary.finished = alreadyDone;
  m.emit("suite_started", {{"dir", fs::absolute(m.dir).string()},
                           {"tasks", m.plan.tasks.size()},
                           {"samples", m.plan.samples},
                           {"workers", 0},
                           {"executor", "slurm"},
                           {"already_done", alreadyDone}});
  for (auto& s : m.samples) {
    if (m.stopRequested) break;
    m.submit(s);
  }
  int queryFailures = 0;
  auto nextPoll = std::chrono::steady_clock::now();
  for (;;) {
    std::vector<std::string> ids;
    for (const auto& s : m.samples)
      if (!s.closed && !s.jobId.empty()) ids.push_back(s.jobId);
    if (ids.empty()) break;
    if (m.stopRequested) {
      m.cancelOpenJobs();
      for (auto& s : m.samples)
        if (!s.closed && !s.jobId.empty()) m.jobEnded(s, "CANCELLED");
      break;
    }
    // Short sleeps, so a stop is seen at once.
    if (std::chrono::steady_clock::now() < nextPoll) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    nextPoll = std::chrono::steady_clock::now() + m.opt.pollInterval;
    const ProcessResult r = m.runSlurm(squeueArgv(ids));
    std::map<std::string, SlurmJobState> states;
    try {
      const bool noneKnown = r.started && r.exited && squeueFoundNoneOfTheJobs(r.exitCode, r.stderrText);
      if (!r.ok() && !noneKnown)
        throw std::runtime_error("squeue " + r.describeOutcome() + ": " + r.stderrText.substr(0, 2000));
      if (!noneKnown) states = parseSqueue(r.stdoutText);
      queryFailures = 0;
    } catch (const std::exception& e) {
      if (++queryFailures >= m.opt.maxQueryFailures) {
        {
          std::lock_guard lock(m.mu);
          m.summary.errors.push_back(std::string("giving up on Slurm after ") +
                                     std::to_string(queryFailures) +
                                     " failed queries; its jobs may still run: " + e.what());
        }
        m.cancelOpenJobs();
        for (auto& s : m.samples)
          if (!s.closed && !s.jobId.empty()) {
            std::lock_guard lock(m.mu);
            s.closed = true;
            ++m.summary.failed;
          }
        break;
      }
      continue;
    }
    for (auto& s : m.samples) {
      if (s.closed || s.jobId.empty()) continue;
      auto it = states.find(s.jobId);
      // Not listed: older than MinJobAge, so long finished.
      const std::string state = it == states.end() ? "GONE" : it->second.state;
      const bool ended = it == states.end() || it->second.phase == SlurmJobPhase::Finished;
      if (state != s.lastState) {
        s.lastState = state;
        m.emit("job_state", {{"task", s.task},
                             {"sample", s.sample},
                             {"job_id", s.jobId},
                             {"state", state},
                             {"reason", it == states.end() ? "" : it->second.reason}});
      }
      if (ended) m.jobEnded(s, state);
    }
  }
  m.summary.stopped = m.stopRequested;
  m.emit("suite_finished", {{"stopped", m.summary.stopped}});
  return m.summary;
}

}  // namespace kwb::suite
