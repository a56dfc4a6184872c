// SPDX-License-Identifier: MIT
#include "core/suite/SlurmExecutor.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/process/ProcessRunner.h"
#include "core/suite/SlurmArrayManifest.h"
#include "core/suite/SuiteLayout.h"

namespace kwb::suite {

namespace fs = std::filesystem;

namespace {

constexpr auto kSlurmCommandTimeout = std::chrono::seconds(60);

struct TrackedSample {
  std::string task;
  int sample = 0;
  int attempt = 0;         // 1 = first submission
  std::string arrayJobId;  // "" while not submitted
  std::string jobId;       // "<arrayJobId>_<index>": the element running this sample
  fs::path output;         // the element's stdout and stderr
  std::string lastState;
  bool closed = false;    // done, given up, or not retried
  bool resubmit = false;  // killed: goes into the next array
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

// Each array job id once, in the order met.
std::vector<std::string> arrayJobIdsOf(const std::vector<TrackedSample*>& samples) {
  std::vector<std::string> ids;
  for (const auto* s : samples)
    if (!s->arrayJobId.empty() && std::find(ids.begin(), ids.end(), s->arrayJobId) == ids.end())
      ids.push_back(s->arrayJobId);
  return ids;
}

}  // namespace

fs::path slurmSampleStatusFile(const fs::path& suiteDir, const std::string& task, int sample) {
  return suiteDir / "slurm" / (task + ".sample-" + std::to_string(sample) + ".status.json");
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
  int nextArrayNumber = 1;
  bool accountingAvailable = true;  // until sacct says it is disabled

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

  std::vector<TrackedSample*> openSamples() {
    std::vector<TrackedSample*> open;
    for (auto& s : samples)
      if (!s.closed) open.push_back(&s);
    return open;
  }

  void closeFailed(TrackedSample& s, const std::string& why) {
    {
      std::lock_guard lock(mu);
      s.closed = true;
      ++summary.failed;
      summary.errors.push_back(s.task + " sample " + std::to_string(s.sample) + ": " + why);
    }
    emit("sample_finished", {{"task", s.task},
                             {"sample", s.sample},
                             {"status", "failed"},
                             {"job_id", s.jobId},
                             {"state", s.lastState},
                             {"error", why}});
  }

  // Submits `group` as one array per kMaxSlurmArraySize samples.
  void submitArrays(const std::vector<TrackedSample*>& group) {
    for (std::size_t from = 0; from < group.size() && !stopRequested; from += kMaxSlurmArraySize) {
      const auto to = std::min(group.size(), from + static_cast<std::size_t>(kMaxSlurmArraySize));
      submitArray({group.begin() + static_cast<std::ptrdiff_t>(from),
                   group.begin() + static_cast<std::ptrdiff_t>(to)});
    }
  }

  // One sbatch --array for `chunk`, element i running chunk[i]; when sbatch refuses, each sample is
  // closed as failed.
  void submitArray(const std::vector<TrackedSample*>& chunk) {
    const int number = nextArrayNumber++;
    std::vector<SlurmArrayElement> elements;
    for (auto* s : chunk) {
      ++s->attempt;
      s->resubmit = false;
      std::error_code ec;
      fs::remove(slurmSampleStatusFile(dir, s->task, s->sample), ec);
      elements.push_back({s->task, s->sample, s->attempt});
    }
    const fs::path manifest = fs::absolute(slurmArrayManifestFile(dir, number));
    std::string why;
    std::optional<std::string> arrayJobId;
    try {
      // Written before sbatch, so no element can start without its line.
      writeJsonAtomic(manifest, slurmArrayManifestToJson(elements));
      SlurmJobRequest job;
      fs::path suiteName = fs::absolute(dir);
      if (suiteName.filename().empty()) suiteName = suiteName.parent_path();  // "DIR/"
      job.jobName = "kwb-" + suiteName.filename().string() + "-" + std::to_string(number);
      job.partition = opt.partition;
      job.timeLimit = opt.timeLimit;
      job.account = opt.account;
      job.workDir = fs::absolute(dir);
      job.outputFile = fs::absolute(slurmArrayOutputPattern(dir, number));
      job.command = opt.jobCommand(manifest);
      job.arraySize = static_cast<int>(chunk.size());
      job.arrayThrottle = opt.maxRunning;
      const ProcessResult r = runSlurm(sbatchArgv(job));
      arrayJobId = r.ok() ? parseSbatchJobId(r.stdoutText) : std::nullopt;
      if (!arrayJobId) why = "sbatch failed (" + r.describeOutcome() + "): " + r.stderrText.substr(0, 2000);
    } catch (const std::exception& e) {
      why = std::string("cannot submit the job array: ") + e.what();
    }
    if (!arrayJobId) {
      for (auto* s : chunk) closeFailed(*s, why);
      return;
    }
    emit("array_submitted", {{"array_job_id", *arrayJobId},
                             {"manifest", manifest.string()},
                             {"elements", chunk.size()},
                             {"max_running", opt.maxRunning}});
    for (std::size_t i = 0; i < chunk.size(); ++i) {
      TrackedSample& s = *chunk[i];
      s.arrayJobId = *arrayJobId;
      s.jobId = slurmArrayElementJobId(*arrayJobId, static_cast<int>(i));
      s.output = fs::absolute(slurmArrayOutputFile(dir, number, static_cast<int>(i)));
      s.lastState = "SUBMITTED";
      emit("job_submitted", {{"task", s.task},
                             {"sample", s.sample},
                             {"job_id", s.jobId},
                             {"array_job_id", s.arrayJobId},
                             {"array_index", i},
                             {"attempt", s.attempt},
                             {"output", s.output.string()}});
    }
  }

  // The accounting records of the arrays' elements; empty where the cluster keeps none (then squeue's
  // state and the files decide, as docs/suites.md says) or sacct fails: it only adds to what they say.
  std::map<std::string, SlurmAccountingRecord> accountingOf(const std::vector<std::string>& arrayJobIds) {
    if (!accountingAvailable || arrayJobIds.empty()) return {};
    const ProcessResult r = runSlurm(sacctArgv(arrayJobIds));
    if (r.started && r.exited && sacctSaysAccountingDisabled(r.exitCode, r.stderrText)) {
      accountingAvailable = false;
      emit("accounting_unavailable", {{"reason", r.stderrText.substr(0, 500)}});
      return {};
    }
    if (!r.ok()) return {};
    try {
      return parseSacct(r.stdoutText);
    } catch (const std::exception&) {
      return {};
    }
  }

  // An element that left the queue: done, marked for a retry, or closed with the sample's own outcome.
  void elementEnded(TrackedSample& s, const std::string& state, const SlurmAccountingRecord* record) {
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
    auto exitStatus = readExitStatus(slurmSampleStatusFile(dir, s.task, s.sample));
    if (!exitStatus && record) exitStatus = sacctExitStatus(*record);
    if (!stopRequested && slurmJobWasKilled(exitStatus) && s.attempt <= opt.maxRetries) {
      emit("job_retried", {{"task", s.task},
                           {"sample", s.sample},
                           {"job_id", s.jobId},
                           {"state", state},
                           {"attempt", s.attempt + 1}});
      s.resubmit = true;
      return;
    }
    std::string status;
    std::string why;
    if (stopRequested) {
      status = "stopped";
    } else if (slurmJobWasKilled(exitStatus)) {
      status = "failed";
      why = "job " + s.jobId + " ended " + state + " without finishing, " + std::to_string(s.attempt) +
            " attempts; see " + s.output.string();
    } else if (*exitStatus == 1) {
      status = "budget";
    } else {
      status = "failed";
      why = "kwb suite run-sample exited " + std::to_string(*exitStatus) + " in job " + s.jobId + "; see " +
            s.output.string();
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

  // scancel of every array with a sample still open: all their elements, queued or running.
  void cancelOpenArrays() {
    const auto ids = arrayJobIdsOf(openSamples());
    if (ids.empty()) return;
    const ProcessResult r = runSlurm(scancelArgv(ids));
    if (!r.ok()) {
      std::lock_guard lock(mu);
      summary.errors.push_back("scancel failed (" + r.describeOutcome() +
                               "): " + r.stderrText.substr(0, 2000));
    }
  }

  // One squeue round: the state of every open element, events on changes, the ended ones settled (with
  // sacct's record where there is one) and the killed ones submitted again as one array. False when
  // squeue failed.
  bool poll(std::string& error) {
    const auto open = openSamples();
    const ProcessResult r = runSlurm(squeueArgv(arrayJobIdsOf(open)));
    std::map<std::string, SlurmJobState> states;
    try {
      const bool noneKnown = r.started && r.exited && squeueFoundNoneOfTheJobs(r.exitCode, r.stderrText);
      if (!r.ok() && !noneKnown)
        throw std::runtime_error("squeue " + r.describeOutcome() + ": " + r.stderrText.substr(0, 2000));
      if (!noneKnown) states = parseSqueue(r.stdoutText);
    } catch (const std::exception& e) {
      error = e.what();
      return false;
    }
    std::vector<std::pair<TrackedSample*, std::string>> ended;
    for (auto* s : open) {
      auto it = states.find(s->jobId);
      // Not listed: older than MinJobAge, so long finished.
      const std::string state = it == states.end() ? "GONE" : it->second.state;
      if (state != s->lastState) {
        s->lastState = state;
        emit("job_state", {{"task", s->task},
                           {"sample", s->sample},
                           {"job_id", s->jobId},
                           {"state", state},
                           {"reason", it == states.end() ? "" : it->second.reason}});
      }
      if (it == states.end() || it->second.phase == SlurmJobPhase::Finished) ended.emplace_back(s, state);
    }
    if (ended.empty()) return true;
    std::vector<TrackedSample*> endedSamples;
    endedSamples.reserve(ended.size());
    for (const auto& e : ended) endedSamples.push_back(e.first);
    const auto records = accountingOf(arrayJobIdsOf(endedSamples));
    std::vector<TrackedSample*> retry;
    for (auto& [s, state] : ended) {
      const auto record = records.find(s->jobId);
      const bool recorded = record != records.end();
      elementEnded(*s, recorded ? record->second.state : state, recorded ? &record->second : nullptr);
      if (s->resubmit) retry.push_back(s);
    }
    if (!retry.empty() && !stopRequested) submitArrays(retry);
    return true;
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
  m.nextArrayNumber = nextSlurmArrayNumber(m.dir);
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
                           {"workers", m.opt.maxRunning},
                           {"executor", "slurm"},
                           {"already_done", alreadyDone}});
  if (!m.stopRequested) m.submitArrays(m.openSamples());
  int queryFailures = 0;
  auto nextPoll = std::chrono::steady_clock::now();
  for (;;) {
    if (m.openSamples().empty()) break;
    if (m.stopRequested) {
      m.cancelOpenArrays();
      for (auto* s : m.openSamples()) m.elementEnded(*s, "CANCELLED", nullptr);
      break;
    }
    // Short sleeps, so a stop is seen at once.
    if (std::chrono::steady_clock::now() < nextPoll) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    nextPoll = std::chrono::steady_clock::now() + m.opt.pollInterval;
    std::string error;
    if (m.poll(error)) {
      queryFailures = 0;
      continue;
    }
    if (++queryFailures >= m.opt.maxQueryFailures) {
      {
        std::lock_guard lock(m.mu);
        m.summary.errors.push_back(std::string("giving up on Slurm after ") + std::to_string(queryFailures) +
                                   " failed queries; its jobs may still run: " + error);
      }
      m.cancelOpenArrays();
      for (auto* s : m.openSamples()) {
        std::lock_guard lock(m.mu);
        s->closed = true;
        ++m.summary.failed;
      }
      break;
    }
  }
  m.summary.stopped = m.stopRequested;
  m.emit("suite_finished", {{"stopped", m.summary.stopped}});
  return m.summary;
}

}  // namespace kwb::suite
