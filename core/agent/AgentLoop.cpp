// SPDX-License-Identifier: MIT
#include "core/agent/AgentLoop.h"
#include "core/base/TextFile.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <future>
#include <stdexcept>
#include <utility>

#include "core/agent/CannProjectExporter.h"
#include "core/agent/IterationRunner.h"
#include "core/agent/KnowledgePack.h"
#include "core/agent/OpProjectExporter.h"
#include "core/agent/RoundPolicy.h"
#include "core/agent/SessionSummary.h"
#include "core/agent/WorkRootJanitor.h"
#include "core/base/PrivateCacheDir.h"
#include "core/base/TempWorkDir.h"
#include "core/base/TextFile.h"
#include "core/model/Task.h"
#include "core/model/Time.h"
#include "core/toolchain/OpProjectForm.h"

namespace kwb {

namespace fs = std::filesystem;

std::string_view agentStateName(AgentState s) {
  switch (s) {
    case AgentState::Idle:
      return "idle";
    case AgentState::Generating:
      return "generating";
    case AgentState::Compiling:
      return "compiling";
    case AgentState::Running:
      return "running";
    case AgentState::Verifying:
      return "verifying";
    case AgentState::Profiling:
      return "profiling";
    case AgentState::Deciding:
      return "deciding";
    case AgentState::Paused:
      return "paused";
    case AgentState::Stopped:
      return "stopped";
    case AgentState::Finished:
      return "finished";
  }
  return "idle";
}

namespace {
// An unpredictable folder only this process created (a fixed /tmp/kwb-agent-<pid> name could be
// pre-created by another user), marked with its owner so that a later loop can remove it should this
// process be killed (WorkRootJanitor.h); the folders of loops killed earlier go first.
fs::path defaultWorkRoot() {
  removeAbandonedAgentScratch();
  std::string error;
  fs::path root = makeTempWorkDir(kAgentScratchPrefix, error);
  if (root.empty()) throw std::runtime_error("AgentLoop: " + error);
  if (const std::string why = writeScratchOwner(root); !why.empty()) {
    std::error_code ec;
    fs::remove_all(root, ec);
    throw std::runtime_error("AgentLoop: " + why);
  }
  return root;
}

using Edit = std::pair<Candidate, std::optional<int>>;
}  // namespace

// The loop's control: the one worker thread, pause/step/stop, the steering queue, and the progress the
// RoundPolicy decides on. One iteration is the IterationRunner's; what the next round does is the
// RoundPolicy's (docs/architecture.md, "The agent loop").
struct AgentLoop::Impl {
  Impl(SessionStore s, std::shared_ptr<LlmClient> l, std::shared_ptr<CandidateEvaluator> e,
       AgentLoopOptions o)
      : store(std::move(s)),
        llm(std::move(l)),
        evaluator(std::move(e)),
        options(std::move(o)),
        policy(RoundPolicyConfig{options.defaultPatience, options.defaultMaxIterations,
                                 options.minImprovement}) {}

  // --- fixed after construction
  SessionStore store;
  std::shared_ptr<LlmClient> llm;
  std::shared_ptr<CandidateEvaluator> evaluator;
  AgentLoopOptions options;
  // The default work root, created by the loop: removed with it unless options.keepWork. A root the
  // caller passed is the caller's and stays (only the iteration folders in it are removed).
  TempWorkDir ownedWorkRoot;
  Task task;  // the session's task, with its files (reference, README) found again via taskPath
  RoundPolicy policy;
  std::unique_ptr<IterationRunner> runner;

  // --- guarded by mutex
  mutable std::mutex mutex;
  std::condition_variable cv;
  std::thread thread;  // started by launchLocked() only
  int launches = 0;
  bool threadRunning = false;
  bool threadDone = false;
  std::atomic<bool> stopRequested{false};  // also the LLM cancel flag
  bool pauseRequested = false;
  int stepGrants = 0;
  bool finished = false;  // limits reached
  std::string finishReason;
  // Start or Step after the loop finished: the engineer asked for another round explicitly, so the
  // next round runs even when a budget is already spent (the limits are checked again after it).
  bool oneMoreRound = false;
  AgentState state = AgentState::Idle;
  std::deque<Edit> edits;  // taken at step boundaries outside any evaluation only
  int evaluationsInFlight = 0;
  bool editRunning = false;
  std::string hint;
  std::optional<int> rollbackTarget;
  LoopProgress progress;
  std::chrono::steady_clock::time_point startedAt{};
  std::vector<int> interrupted;  // iterations to re-evaluate after a crash (candidate saved)

  // --- observers
  std::mutex observerMutex;
  std::vector<AgentObserver*> observers;

  void emit(const AgentEvent& e);
  void setState(AgentState s, std::optional<int> iterationId = std::nullopt, std::string detail = {});
  // The one place the worker thread is started; false when it runs, ran, or the loop was stopped.
  bool launchLocked();
  void reopenAfterFinish();  // caller holds mutex
  // A step boundary: throws AgentStopRequested on stop; waits while paused; consumes a step grant.
  // While paused outside any evaluation it evaluates submitted edits.
  void checkpoint(bool insideEvaluation);
  bool canTakeEditLocked(bool insideEvaluation) const {
    return !insideEvaluation && !editRunning && evaluationsInFlight == 0 && !edits.empty();
  }
  // Takes the next edit (caller holds mutex and checked canTakeEditLocked) and evaluates it.
  void runEdit(std::unique_lock<std::mutex>& lock);
  void threadMain();
  void runRound();
};

// ---------------------------------------------------------------- construction and control

AgentLoop::AgentLoop(SessionStore store, std::shared_ptr<LlmClient> llm,
                     std::shared_ptr<CandidateEvaluator> evaluator, AgentLoopOptions options) {
  if (!store.writable()) throw std::invalid_argument("AgentLoop needs a session opened for writing");
  if (!llm) throw std::invalid_argument("AgentLoop needs an LLM client");
  if (!evaluator) throw std::invalid_argument("AgentLoop needs an evaluator");
  if (options.prompts.contract.empty()) options.prompts = loadPromptResources();
  const bool ownsWorkRoot = options.workRoot.empty();
  if (ownsWorkRoot) options.workRoot = defaultWorkRoot();
  if (options.cacheDir.empty()) options.cacheDir = defaultEvalCacheDir();
  const fs::path workRoot = options.workRoot;
  const bool keepWork = options.keepWork;
  impl_ = std::make_unique<Impl>(std::move(store), std::move(llm), std::move(evaluator), std::move(options));
  Impl& d = *impl_;
  if (ownsWorkRoot) d.ownedWorkRoot = TempWorkDir(workRoot, keepWork);
  const Session s = d.store.session();
  d.task = s.task;
  // Sessions embed the task's spec, not its files: find reference.cpp and README.md again where the task
  // was loaded from (the evaluator needs the reference; the README goes into prompts).
  if (!d.task.files.reference && !s.taskPath.empty()) {
    try {
      d.task.files = loadTaskDir(s.taskPath).files;
    } catch (const std::exception&) {
      // The task folder moved: evaluation reports the missing reference itself.
    }
  }
  std::string readme;
  if (d.task.files.readme) {
    try {
      readme = readTextFileOrThrow(*d.task.files.readme);
    } catch (const std::exception&) {
      // The README is optional.
    }
  }
  IterationHooks hooks;
  hooks.emit = [&d](const AgentEvent& e) { d.emit(e); };
  hooks.setState = [&d](AgentState st, std::optional<int> id, std::string detail) {
    d.setState(st, id, std::move(detail));
  };
  hooks.boundary = [&d](StepBoundary b) { d.checkpoint(b != StepBoundary::Generated); };
  hooks.evaluating = [&d](bool begin) {
    std::lock_guard lock(d.mutex);
    d.evaluationsInFlight += begin ? 1 : -1;
    d.cv.notify_all();
  };
  hooks.stop = &d.stopRequested;
  d.runner = std::make_unique<IterationRunner>(d.store, d.llm, d.evaluator, d.options, d.task,
                                               std::move(readme), std::move(hooks));
  d.interrupted = d.runner->recoverInterrupted();
  d.progress.head = d.policy.initialHead(d.store.session(), d.options.resumeFrom);
}

AgentLoop::~AgentLoop() {
  stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

void AgentLoop::addObserver(AgentObserver* o) {
  std::lock_guard lock(impl_->observerMutex);
  if (o && std::find(impl_->observers.begin(), impl_->observers.end(), o) == impl_->observers.end())
    impl_->observers.push_back(o);
}

void AgentLoop::removeObserver(AgentObserver* o) {
  std::lock_guard lock(impl_->observerMutex);
  impl_->observers.erase(std::remove(impl_->observers.begin(), impl_->observers.end(), o),
                         impl_->observers.end());
}

bool AgentLoop::Impl::launchLocked() {
  if (threadRunning || threadDone || stopRequested) return false;
  threadRunning = true;
  ++launches;
  startedAt = std::chrono::steady_clock::now();
  thread = std::thread([this] { threadMain(); });
  return true;
}

void AgentLoop::start() {
  std::lock_guard lock(impl_->mutex);
  if (impl_->threadRunning) {
    impl_->pauseRequested = false;
    impl_->stepGrants = 0;
    impl_->reopenAfterFinish();
    impl_->cv.notify_all();
    return;
  }
  impl_->launchLocked();  // a stopped loop stays stopped
}

void AgentLoop::pause() {
  std::lock_guard lock(impl_->mutex);
  impl_->pauseRequested = true;
  impl_->stepGrants = 0;
  impl_->cv.notify_all();
}

void AgentLoop::resume() {
  std::lock_guard lock(impl_->mutex);
  impl_->pauseRequested = false;
  impl_->stepGrants = 0;
  impl_->reopenAfterFinish();
  impl_->cv.notify_all();
}

void AgentLoop::Impl::reopenAfterFinish() {
  if (!finished || options.exitWhenFinished) return;
  finished = false;  // the engineer asks for more rounds: limits are checked again after the next one
  finishReason.clear();
  progress.roundsWithoutImprovement = 0;
  oneMoreRound = true;
}

void AgentLoop::step() {
  std::lock_guard lock(impl_->mutex);
  if (impl_->finished && !impl_->options.exitWhenFinished) {
    // Finished (e.g. after a roll back): one step starts the next round and pauses after generation.
    impl_->reopenAfterFinish();
    impl_->pauseRequested = true;
    impl_->stepGrants = 1;
  } else if (impl_->state == AgentState::Paused) {
    ++impl_->stepGrants;
  } else if (!impl_->threadRunning && !impl_->threadDone) {
    // Before start(): start paused with one step granted.
    impl_->pauseRequested = true;
    impl_->stepGrants = 1;
    impl_->launchLocked();
  } else {
    impl_->pauseRequested = true;
  }
  impl_->cv.notify_all();
}

void AgentLoop::stop() {
  std::lock_guard lock(impl_->mutex);
  impl_->stopRequested = true;
  impl_->cv.notify_all();
}

void AgentLoop::queueHint(const std::string& text) {
  std::lock_guard lock(impl_->mutex);
  if (!impl_->hint.empty() && !text.empty()) impl_->hint += "\n";
  impl_->hint += text;
}

void AgentLoop::submitEdit(Candidate candidate, std::optional<int> parentId) {
  // An imported operator project keeps its origin (kwb task import; docs/task-format.md).
  if (candidate.origin != Origin::Imported) candidate.origin = Origin::Human;
  std::lock_guard lock(impl_->mutex);
  impl_->edits.emplace_back(std::move(candidate), parentId);
  if (!impl_->threadRunning && !impl_->threadDone && !impl_->stopRequested) {
    // Not started: evaluate the edit, then wait paused for start()/resume().
    impl_->pauseRequested = true;
    impl_->launchLocked();
  }
  impl_->cv.notify_all();
}

int AgentLoop::pinConstraint(Constraint c) {
  int id = 0;
  {
    std::lock_guard lock(impl_->mutex);
    Session s = impl_->store.session();
    c.id = s.nextConstraintId();
    if (c.createdAt.empty()) c.createdAt = nowIso8601();
    id = c.id;
    s.constraints.push_back(std::move(c));
    impl_->store.setConstraints(s.constraints);
  }
  impl_->emit(agent_event::ConstraintsChanged{});
  return id;
}

bool AgentLoop::unpinConstraint(int constraintId) {
  {
    std::lock_guard lock(impl_->mutex);
    Session s = impl_->store.session();
    auto it = std::find_if(s.constraints.begin(), s.constraints.end(),
                           [&](const Constraint& c) { return c.id == constraintId; });
    if (it == s.constraints.end()) return false;
    s.constraints.erase(it);
    impl_->store.setConstraints(s.constraints);
  }
  impl_->emit(agent_event::ConstraintsChanged{});
  return true;
}

void AgentLoop::rollbackTo(int iterationId) {
  if (!impl_->store.iteration(iterationId))
    throw std::invalid_argument("rollback: no iteration " + std::to_string(iterationId) + " in this session");
  std::lock_guard lock(impl_->mutex);
  impl_->rollbackTarget = iterationId;
}

fs::path AgentLoop::accept(int iterationId, const fs::path& exportDir) {
  const auto it = impl_->store.iteration(iterationId);
  if (!it)
    throw std::invalid_argument("accept: no iteration " + std::to_string(iterationId) + " in this session");
  if (it->verdict != Verdict::Pass)
    throw std::invalid_argument(
        "accept: iteration " + std::to_string(iterationId) + " did not pass (verdict " +
        (it->verdict ? std::string(verdictName(*it->verdict)) : std::string("none")) + ")");
  const Session s = impl_->store.session();
  const std::string soc = s.settings.soc.empty() ? impl_->task.soc : s.settings.soc;
  // Both exports where both apply: the kernel-launch project and, beside it, the msopgen project; a
  // candidate in the operator-project form exports as its msopgen project only (docs/workbench.md).
  std::vector<Diagnostic> formProblems;
  const bool opProject =
      detectOpProjectForm(it->candidate.files, primaryCandidateFile(it->candidate).first, formProblems)
          .has_value();
  fs::path dir;
  OpProjectExportOptions oo;
  oo.soc = soc;
  if (opProject) {
    dir = exportOperatorProject(impl_->task, *it, exportDir, oo);
  } else {
    CannExportOptions eo;
    eo.soc = soc;
    dir = exportCannProject(impl_->task, *it, exportDir, eo);
    exportOperatorProject(impl_->task, *it, exportDir / "op_project", oo);
  }
  impl_->store.setAccepted(iterationId);
  impl_->emit(agent_event::Accepted{iterationId, dir.string()});
  return dir;
}

Session AgentLoop::snapshot() const {
  return impl_->store.session();
}

AgentState AgentLoop::state() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->state;
}

std::string AgentLoop::finishReason() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->finishReason;
}

std::optional<int> AgentLoop::bestIteration() const {
  return bestPassingIteration(impl_->store.session());
}

int AgentLoop::workerLaunches() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->launches;
}

bool AgentLoop::waitUntilDone(std::chrono::milliseconds timeout) {
  std::unique_lock lock(impl_->mutex);
  return impl_->cv.wait_for(lock, timeout, [&] { return impl_->threadDone || !impl_->threadRunning; });
}

bool AgentLoop::waitForState(AgentState s, std::chrono::milliseconds timeout) {
  std::unique_lock lock(impl_->mutex);
  return impl_->cv.wait_for(lock, timeout, [&] { return impl_->state == s; });
}

// ---------------------------------------------------------------- events and boundaries

void AgentLoop::Impl::emit(const AgentEvent& e) {
  std::lock_guard lock(observerMutex);
  for (auto* o : observers) {
    try {
      o->onAgentEvent(e);
    } catch (...) {
      // An observer's failure must not take the loop down.
    }
  }
}

void AgentLoop::Impl::setState(AgentState s, std::optional<int> iterationId, std::string detail) {
  {
    std::lock_guard lock(mutex);
    state = s;
    cv.notify_all();
  }
  emit(agent_event::StateChanged{s, iterationId, std::move(detail)});
}

void AgentLoop::Impl::runEdit(std::unique_lock<std::mutex>& lock) {
  Edit edit = std::move(edits.front());
  edits.pop_front();
  editRunning = true;
  if (!edit.second) edit.second = progress.head;
  lock.unlock();
  int id = 0;
  try {
    id = runner->runEdit(std::move(edit.first), edit.second);
  } catch (...) {
    lock.lock();
    editRunning = false;
    cv.notify_all();
    throw;
  }
  lock.lock();
  // The engineer's edit is what the agent continues from.
  progress = RoundPolicy::afterEdit(id);
  editRunning = false;
  cv.notify_all();
}

void AgentLoop::Impl::checkpoint(bool insideEvaluation) {
  std::unique_lock lock(mutex);
  if (stopRequested) throw AgentStopRequested{};
  if (!pauseRequested) return;
  if (stepGrants > 0) {
    --stepGrants;
    return;
  }
  const AgentState before = state;
  lock.unlock();
  setState(AgentState::Paused);
  lock.lock();
  for (;;) {
    cv.wait(lock, [&] {
      return stopRequested || !pauseRequested || stepGrants > 0 || canTakeEditLocked(insideEvaluation);
    });
    if (stopRequested) throw AgentStopRequested{};
    if (canTakeEditLocked(insideEvaluation)) {
      runEdit(lock);
      lock.unlock();
      setState(AgentState::Paused);
      lock.lock();
      continue;
    }
    if (stepGrants > 0) --stepGrants;
    break;
  }
  lock.unlock();
  setState(before);
}

// ---------------------------------------------------------------- the thread

void AgentLoop::Impl::threadMain() {
  try {
    for (int id : interrupted) runner->reEvaluate(id);
    interrupted.clear();
    {
      const Session s = store.session();
      std::lock_guard lock(mutex);
      progress.head = policy.initialHead(s, options.resumeFrom);
    }
    for (;;) {
      {
        std::unique_lock lock(mutex);
        if (stopRequested) break;
        if (canTakeEditLocked(false)) {
          runEdit(lock);
          continue;
        }
        if (finished) {
          if (options.exitWhenFinished) break;
          lock.unlock();
          setState(AgentState::Finished, std::nullopt, finishReason);
          lock.lock();
          cv.wait(lock, [&] { return stopRequested || !edits.empty() || !finished; });
          continue;
        }
      }
      checkpoint(false);  // between rounds
      bool another = true;
      {
        const Session s = store.session();
        std::lock_guard lock(mutex);
        if (!std::exchange(oneMoreRound, false)) {
          const double elapsed =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - startedAt).count();
          if (auto why = policy.limitReached(s, progress, elapsed)) {
            finished = true;
            finishReason = *why;
            another = false;
          }
        }
      }
      if (another) runRound();
    }
  } catch (const AgentStopRequested&) {
    // fall through to Stopped
  } catch (const std::exception& e) {
    emit(agent_event::Error{std::nullopt, std::string("agent loop failed: ") + e.what()});
    std::lock_guard lock(mutex);
    finishReason = std::string("internal error: ") + e.what();
    stopRequested = true;
  }
  bool stopped = false;
  {
    std::lock_guard lock(mutex);
    stopped = stopRequested.load();
    if (stopped && finishReason.empty()) finishReason = "stopped";
  }
  setState(stopped ? AgentState::Stopped : AgentState::Finished, std::nullopt, finishReason);
  std::lock_guard lock(mutex);
  threadDone = true;
  threadRunning = false;
  cv.notify_all();
}

void AgentLoop::Impl::runRound() {
  RoundPlan plan;
  {
    const Session s = store.session();
    std::lock_guard lock(mutex);
    if (rollbackTarget) progress = RoundPolicy::rolledBack(*std::exchange(rollbackTarget, std::nullopt));
    plan = policy.plan(s, progress, std::exchange(hint, std::string()));
  }
  const int n = std::max(1, store.session().settings.limits.candidatesPerRound);
  std::vector<int> ids;
  if (n == 1) {
    ids.push_back(runner->runAgentIteration(plan));
  } else {
    // A small worker pool: one worker per candidate of the round (N is small by design).
    std::vector<std::future<int>> futures;
    futures.reserve(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k)
      futures.push_back(
          std::async(std::launch::async, [this, &plan] { return runner->runAgentIteration(plan); }));
    std::exception_ptr stop;
    for (auto& f : futures) {
      try {
        ids.push_back(f.get());
      } catch (const AgentStopRequested&) {
        stop = std::current_exception();
      }
    }
    if (stop) std::rethrow_exception(stop);
  }
  ids.erase(std::remove(ids.begin(), ids.end(), 0), ids.end());
  setState(AgentState::Deciding, ids.empty() ? std::nullopt : std::optional<int>(ids.front()));
  {
    const Session s = store.session();
    std::lock_guard lock(mutex);
    RoundDecision d = policy.decide(s, plan, ids, progress);
    progress = d.progress;
    if (d.finish) {
      finished = true;
      finishReason = *d.finish;
    }
  }
  checkpoint(false);  // after deciding
}

}  // namespace kwb
