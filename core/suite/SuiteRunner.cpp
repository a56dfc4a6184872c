// SPDX-License-Identifier: MIT
#include "core/suite/SuiteRunner.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

#include "core/agent/ImportedTask.h"
#include "core/agent/SessionSummary.h"
#include "core/base/BoundedFileRead.h"
#include "core/base/PrivateCacheDir.h"
#include "core/base/TempWorkDir.h"
#include "core/store/SessionStore.h"
#include "core/suite/SampleOutcome.h"

namespace kwb::suite {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr auto kBudgetPoll = std::chrono::milliseconds(200);
constexpr const char* kExpertFileName = "expert_candidate.cpp";

struct Job {
  bool expert = false;
  std::size_t task = 0;
  int sample = 0;
};

// Tokens and evaluated iterations of one sample, by iteration id, so an iteration re-evaluated after a
// resume is not counted twice.
struct SampleUsage {
  std::map<int, std::int64_t> tokens;
  std::set<int> evaluated;
  std::int64_t tokenSum() const {
    std::int64_t n = 0;
    for (const auto& [id, t] : tokens) n += t;
    return n;
  }
  void add(const Iteration& it) {
    if (it.usage) tokens[it.id] = it.usage->promptTokens + it.usage->completionTokens;
    if (it.state == IterationState::Done) evaluated.insert(it.id);
  }
};

bool isWorkbenchFailure(const std::string& reason) {
  return reason.rfind(kLlmFailurePrefix, 0) == 0 || reason.rfind("internal error", 0) == 0 ||
         reason.rfind("the workbench could not", 0) == 0;
}

std::string sampleKey(const std::string& task, int sample) {
  return task + "#" + std::to_string(sample);
}

}  // namespace

struct SuiteRunner::Impl {
  fs::path dir;
  SuitePlan plan;
  SuiteRunOptions opt;
  std::vector<std::optional<Task>> tasks;  // loaded once; nullopt: see taskErrors
  std::vector<std::string> taskErrors;

  std::mutex mu;  // everything below
  std::deque<Job> jobs;
  std::map<std::string, SampleUsage> usage;  // sampleKey -> usage
  std::map<std::string, double> taskSecondsDone;
  std::map<std::string, std::map<std::string, Clock::time_point>> runningSince;  // task -> sample -> start
  std::set<std::shared_ptr<AgentLoop>> running;
  SuiteRunSummary summary;
  int finishedThisRun = 0;
  Clock::time_point start = Clock::now();

  std::mutex eventMu;  // serialises onEvent
  std::atomic<bool> stopRequested{false};

  void emit(const std::string& kind, nlohmann::json data) {
    {
      std::lock_guard lock(mu);
      data["done"] = summary.finished;
      data["total"] = summary.total;
      data["skipped"] = summary.skipped;
      data["failed"] = summary.failed;
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      const int left = summary.total - summary.finished - summary.skipped - summary.failed;
      // Throughput of this run (with its workers in parallel), not the mean sample time.
      data["eta_s"] = finishedThisRun > 0 ? nlohmann::json(elapsed / finishedThisRun * std::max(0, left))
                                          : nlohmann::json(nullptr);
      data["elapsed_s"] = elapsed;
    }
    if (!opt.onEvent) return;
    std::lock_guard lock(eventMu);
    opt.onEvent({kind, std::move(data)});
  }

  // Why `task` may not go on; nullopt when every budget has room. Caller holds mu.
  std::optional<std::string> budgetExceededLocked(const std::string& task) const {
    const auto& b = plan.budgets;
    std::int64_t taskTokens = 0, totalTokens = 0;
    int taskIterations = 0, totalIterations = 0;
    for (const auto& [key, u] : usage) {
      const bool mine = key.rfind(task + "#", 0) == 0;
      const std::int64_t t = u.tokenSum();
      const int n = static_cast<int>(u.evaluated.size());
      totalTokens += t;
      totalIterations += n;
      if (mine) {
        taskTokens += t;
        taskIterations += n;
      }
    }
    const auto now = Clock::now();
    double taskSeconds = 0;
    if (auto it = taskSecondsDone.find(task); it != taskSecondsDone.end()) taskSeconds = it->second;
    if (auto it = runningSince.find(task); it != runningSince.end())
      for (const auto& [sample, since] : it->second)
        taskSeconds += std::chrono::duration<double>(now - since).count();
    const double totalSeconds = std::chrono::duration<double>(now - start).count();
    if (b.totalTokens && totalTokens >= *b.totalTokens)
      return "suite token budget (" + std::to_string(*b.totalTokens) + ") reached";
    if (b.totalIterations && totalIterations >= *b.totalIterations)
      return "suite iteration budget (" + std::to_string(*b.totalIterations) + ") reached";
    if (b.totalSeconds && totalSeconds >= *b.totalSeconds) return "suite time budget reached";
    if (b.taskTokens && taskTokens >= *b.taskTokens)
      return "task token budget (" + std::to_string(*b.taskTokens) + ") reached";
    if (b.taskIterations && taskIterations >= *b.taskIterations)
      return "task iteration budget (" + std::to_string(*b.taskIterations) + ") reached";
    if (b.taskSeconds && taskSeconds >= *b.taskSeconds) return "task time budget reached";
    return std::nullopt;
  }

  std::optional<std::string> budgetExceeded(const std::string& task) {
    std::lock_guard lock(mu);
    return budgetExceededLocked(task);
  }

  void fail(const std::string& task, int sample, const std::string& message) {
    {
      std::lock_guard lock(mu);
      ++summary.failed;
      summary.errors.push_back(task + " sample " + std::to_string(sample) + ": " + message);
    }
    emit("sample_finished", {{"task", task}, {"sample", sample}, {"status", "failed"}, {"error", message}});
  }

  void measureExpert(std::size_t index) {
    const SuiteTask& t = plan.tasks[index];
    const fs::path file = expertResultFile(dir, t.name);
    std::error_code ec;
    if (fs::exists(file, ec) || !tasks[index]) return;
    const fs::path source = t.dir / kExpertFileName;
    if (!fs::exists(source, ec)) {
      emit("expert_measured",
           {{"task", t.name}, {"us", nullptr}, {"summary", "no " + std::string(kExpertFileName)}});
      return;
    }
    nlohmann::json doc{{"task", t.name}, {"us", nullptr}};
    try {
      std::string error;
      auto text = readBoundedRegularFile(source, kMaxCandidateFileBytes, error);
      if (!text) throw std::runtime_error(error);
      Candidate expert;
      expert.origin = Origin::Human;
      expert.files["kernel.cpp"] = std::move(*text);
      std::string workError;
      TempWorkDir work(makeTempWorkDir("kwb-suite-expert-", workError));
      if (work.path().empty()) throw std::runtime_error(workError);
      EvaluationContext ctx;
      ctx.workDir = work.path() / "eval";
      ctx.cacheDir = opt.loop.cacheDir.empty() ? defaultEvalCacheDir() : opt.loop.cacheDir;
      ctx.seed = opt.loop.seed;
      ctx.onPhase = [this](EvalPhase) {
        if (stopRequested) throw std::runtime_error("stopped");
      };
      const EvaluationOutcome r = opt.makeEvaluator(*tasks[index])->evaluate(*tasks[index], expert, ctx);
      doc["verdict"] = verdictName(r.verdict);
      doc["summary"] = r.summary;
      if (r.verdict == Verdict::Pass && r.profile && r.profile->totalUs > 0) {
        doc["us"] = r.profile->totalUs;
        doc["profile_source"] = r.profile->source;
      }
      if (r.run) doc["ran_on"] = std::string(ranOnName(r.run->ranOn));
    } catch (const std::exception& e) {
      if (stopRequested) return;  // measured again on resume
      doc["verdict"] = nullptr;
      doc["summary"] = std::string("the expert candidate could not be evaluated: ") + e.what();
    }
    writeJsonAtomic(file, doc);
    emit("expert_measured", doc);
  }

  class SampleObserver : public AgentObserver {
   public:
    SampleObserver(Impl& impl, std::string task, int sample)
        : impl_(impl), task_(std::move(task)), sample_(sample) {}
    void onAgentEvent(const AgentEvent& e) override {
      const auto* f = std::get_if<agent_event::IterationFinished>(&e);
      if (!f) return;
      {
        std::lock_guard lock(impl_.mu);
        impl_.usage[sampleKey(task_, sample_)].add(f->iteration);
      }
      const auto& it = f->iteration;
      impl_.emit(
          "iteration_finished",
          {{"task", task_},
           {"sample", sample_},
           {"iteration", it.id},
           {"state", iterationStateName(it.state)},
           {"verdict", it.verdict ? nlohmann::json(verdictName(*it.verdict)) : nlohmann::json(nullptr)},
           {"us", it.profile && it.profile->totalUs > 0 ? nlohmann::json(it.profile->totalUs)
                                                        : nlohmann::json(nullptr)},
           {"tokens", it.usage ? it.usage->promptTokens + it.usage->completionTokens : 0},
           {"headline", iterationHeadline(it)}});
    }

   private:
    Impl& impl_;
    std::string task_;
    int sample_;
  };

  void runSample(std::size_t index, int sample) {
    const SuiteTask& t = plan.tasks[index];
    if (!tasks[index]) return fail(t.name, sample, taskErrors[index]);
    if (auto why = budgetExceeded(t.name)) {
      {
        std::lock_guard lock(mu);
        ++summary.skipped;
      }
      emit("sample_skipped", {{"task", t.name}, {"sample", sample}, {"reason", *why}});
      return;
    }
    const Task& task = *tasks[index];
    const fs::path sessionDir = sampleSessionDir(dir, t.name, sample);
    std::error_code ec;
    const bool resumed = fs::exists(sessionDir / SessionStore::kIndexFile, ec);
    std::optional<SessionStore> store;
    std::optional<Candidate> imported;
    try {
      if (resumed) {
        store.emplace(SessionStore::open(sessionDir));
        if (store->damaged())
          return fail(t.name, sample,
                      "session " + sessionDir.string() + " is damaged; repair it with kwb run --task " +
                          t.dir.string() + " --session " + sessionDir.string() +
                          " --repair, then resume the suite");
      } else {
        fs::create_directories(sessionDir.parent_path());
        store.emplace(
            SessionStore::create(sessionDir, makeSession(task, fs::absolute(t.dir).string(), plan.settings)));
        imported = loadImportedCandidate(t.dir);
      }
      SessionSettings settings = store->session().settings;
      settings.limits = plan.settings.limits;
      store->setSettings(settings);
    } catch (const std::exception& e) {
      return fail(t.name, sample, "session " + sessionDir.string() + ": " + e.what());
    }
    AgentLoopOptions loopOptions = opt.loop;
    // A half-done sample continues from its best passing iteration, as the GUI's reopen does; without
    // one the loop's own rule (RoundPolicy::initialHead) picks the latest.
    loopOptions.resumeFrom = resumed ? bestPassingIteration(store->session()) : std::nullopt;
    {
      std::lock_guard lock(mu);
      auto& u = usage[sampleKey(t.name, sample)];
      for (const auto& it : store->session().iterations) u.add(it);
      runningSince[t.name][std::to_string(sample)] = Clock::now();
    }
    const auto sampleStart = Clock::now();
    std::string budgetReason;
    Session session;
    std::string reason;
    std::string loopError;
    try {
      auto loopPtr =
          std::make_shared<AgentLoop>(std::move(*store), opt.makeLlm(), opt.makeEvaluator(task), loopOptions);
      AgentLoop& loop = *loopPtr;
      SampleObserver observer(*this, t.name, sample);
      loop.addObserver(&observer);
      if (imported) loop.submitEdit(std::move(*imported), std::nullopt);
      emit("sample_started", {{"task", t.name},
                              {"sample", sample},
                              {"resumed", resumed},
                              {"session_dir", fs::absolute(sessionDir).string()}});
      {
        std::lock_guard lock(mu);
        running.insert(loopPtr);
      }
      if (stopRequested) loop.stop();
      loop.start();
      while (!loop.waitUntilDone(kBudgetPoll)) {
        if (stopRequested) {
          loop.stop();
        } else if (auto why = budgetExceeded(t.name)) {
          budgetReason = *why;
          loop.stop();
        }
      }
      {
        std::lock_guard lock(mu);
        running.erase(loopPtr);
      }
      loop.removeObserver(&observer);
      reason = loop.finishReason();
      session = loop.snapshot();
    } catch (const std::exception& e) {
      loopError = e.what();
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - sampleStart).count();
    if (!loopError.empty()) {
      {
        std::lock_guard lock(mu);
        runningSince[t.name].erase(std::to_string(sample));
        taskSecondsDone[t.name] += seconds;
      }
      return fail(t.name, sample, loopError);
    }
    SampleOutcome outcome = sampleOutcomeFromSession(session, sample);
    outcome.finishReason = budgetReason.empty() ? reason : budgetReason;
    const bool endedByItself = !stopRequested && budgetReason.empty() && !isWorkbenchFailure(reason);
    outcome.finished = endedByItself;
    std::string status = "finished";
    if (endedByItself) {
      try {
        writeJsonAtomic(sampleDoneFile(dir, t.name, sample),
                        {{"finish_reason", reason}, {"seconds", seconds}, {"outcome", outcome}});
      } catch (const std::exception& e) {
        std::lock_guard lock(mu);
        summary.errors.push_back(e.what());
      }
    } else if (stopRequested) {
      status = "stopped";
    } else if (!budgetReason.empty()) {
      status = "budget";
    } else {
      status = "failed";
    }
    {
      std::lock_guard lock(mu);
      runningSince[t.name].erase(std::to_string(sample));
      taskSecondsDone[t.name] += seconds;
      if (status == "finished") {
        ++summary.finished;
        ++finishedThisRun;
      } else if (status == "budget") {
        ++summary.skipped;
      } else if (status == "failed") {
        ++summary.failed;
        summary.errors.push_back(t.name + " sample " + std::to_string(sample) + ": " + reason);
      }
    }
    emit("sample_finished", {{"task", t.name},
                             {"sample", sample},
                             {"status", status},
                             {"finish_reason", outcome.finishReason},
                             {"seconds", seconds},
                             {"outcome", outcome}});
  }

  void worker() {
    for (;;) {
      Job job;
      {
        std::lock_guard lock(mu);
        if (jobs.empty() || stopRequested) return;
        job = jobs.front();
        jobs.pop_front();
      }
      if (job.expert)
        measureExpert(job.task);
      else
        runSample(job.task, job.sample);
    }
  }
};

SuiteRunner::SuiteRunner(fs::path suiteDir, SuitePlan plan, SuiteRunOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (!options.makeLlm || !options.makeEvaluator)
    throw std::invalid_argument("SuiteRunner needs an LLM client and an evaluator factory");
  impl_->dir = std::move(suiteDir);
  impl_->plan = std::move(plan);
  impl_->opt = std::move(options);
  impl_->opt.workers = std::max(1, impl_->opt.workers);
}

SuiteRunner::~SuiteRunner() = default;

void SuiteRunner::stop() {
  impl_->stopRequested = true;
  // Stopped outside the lock: a loop delivering an event to its observer may be waiting for it.
  std::set<std::shared_ptr<AgentLoop>> running;
  {
    std::lock_guard lock(impl_->mu);
    running = impl_->running;
  }
  for (const auto& loop : running) loop->stop();
}

SuiteRunSummary SuiteRunner::run() {
  Impl& m = *impl_;
  m.start = Clock::now();
  m.tasks.assign(m.plan.tasks.size(), std::nullopt);
  m.taskErrors.assign(m.plan.tasks.size(), std::string());
  int alreadyDone = 0;
  for (std::size_t i = 0; i < m.plan.tasks.size(); ++i) {
    const SuiteTask& t = m.plan.tasks[i];
    try {
      m.tasks[i] = loadTaskDir(t.dir);
    } catch (const std::exception& e) {
      m.taskErrors[i] = std::string("task ") + t.dir.string() + ": " + e.what();
    }
    if (m.opt.measureExpert && !m.opt.onlySample) m.jobs.push_back({true, i, 0});
    for (int k = 1; k <= m.plan.samples; ++k) {
      std::error_code ec;
      const bool selected =
          m.opt.runSamples && (!m.opt.onlySample || *m.opt.onlySample == std::make_pair(t.name, k));
      if (fs::exists(sampleDoneFile(m.dir, t.name, k), ec)) {
        ++alreadyDone;
      } else if (selected) {
        m.jobs.push_back({false, i, k});
      }
      // Usage of every session on disk counts against the budgets, finished or not.
      const fs::path session = sampleSessionDir(m.dir, t.name, k);
      if (!fs::exists(session / SessionStore::kIndexFile, ec)) continue;
      try {
        const Session s = SessionStore::load(session);
        auto& u = m.usage[sampleKey(t.name, k)];
        for (const auto& it : s.iterations) u.add(it);
      } catch (const std::exception&) {
        // A session that cannot be read is reported when its sample runs (runSample opens it).
      }
    }
  }
  m.summary.total = static_cast<int>(m.plan.tasks.size()) * m.plan.samples;
  m.summary.finished = alreadyDone;
  m.emit("suite_started", {{"dir", fs::absolute(m.dir).string()},
                           {"tasks", m.plan.tasks.size()},
                           {"samples", m.plan.samples},
                           {"workers", m.opt.workers},
                           {"already_done", alreadyDone}});
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(m.opt.workers));
  for (int i = 0; i < m.opt.workers; ++i) threads.emplace_back([&m] { m.worker(); });
  for (auto& t : threads) t.join();
  m.summary.stopped = m.stopRequested;
  m.emit("suite_finished", {{"stopped", m.summary.stopped}});
  return m.summary;
}

}  // namespace kwb::suite
