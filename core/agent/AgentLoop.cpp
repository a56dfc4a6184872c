#include "core/agent/AgentLoop.h"

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "core/agent/AgentLoopImpl.h"
#include "core/agent/CannProjectExporter.h"
#include "core/agent/KnowledgePack.h"
#include "core/model/Task.h"
#include "core/model/Time.h"
#include "core/toolchain/PrivateCacheDir.h"
#include "core/toolchain/TempWorkDir.h"

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

std::optional<double> iterationTimeUs(const Iteration& it) {
  if (!it.profile || it.profile->totalUs <= 0) return std::nullopt;
  return it.profile->totalUs;
}

namespace {
// An unpredictable folder only this process created (a fixed /tmp/kwb-agent-<pid> name could be
// pre-created by another user).
fs::path defaultWorkRoot() {
  std::string error;
  fs::path root = makeTempWorkDir("kwb-agent-", error);
  if (root.empty()) throw std::runtime_error("AgentLoop: " + error);
  return root;
}
}  // namespace

AgentLoop::Impl::Impl(SessionStore s, std::shared_ptr<LlmClient> l, std::shared_ptr<CandidateEvaluator> e,
                      AgentLoopOptions o)
    : store(std::move(s)), llm(std::move(l)), evaluator(std::move(e)), options(std::move(o)) {}

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
  if (ownsWorkRoot) impl_->ownedWorkRoot = TempWorkDir(workRoot, keepWork);
  const Session s = impl_->store.session();
  impl_->task = s.task;
  // Sessions embed the task's spec, not its files: find reference.cpp and README.md again where the task
  // was loaded from (the evaluator needs the reference; the README goes into prompts).
  if (!impl_->task.files.reference && !s.taskPath.empty()) {
    try {
      impl_->task.files = loadTaskDir(s.taskPath).files;
    } catch (const std::exception&) {
      // The task folder moved: evaluation reports the missing reference itself.
    }
  }
  if (impl_->task.files.readme) {
    try {
      impl_->taskReadme = readTextFile(*impl_->task.files.readme);
    } catch (const std::exception&) {
      // The README is optional.
    }
  }
  impl_->reservedNextId = impl_->store.nextIterationId();
  impl_->recoverInterrupted();
  impl_->rebuildHead();
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

void AgentLoop::start() {
  std::unique_lock lock(impl_->mutex);
  if (impl_->threadRunning) {
    impl_->pauseRequested = false;
    impl_->stepGrants = 0;
    impl_->reopenAfterFinish();
    impl_->cv.notify_all();
    return;
  }
  if (impl_->threadDone || impl_->stopRequested) return;  // a stopped loop stays stopped
  impl_->threadRunning = true;
  impl_->startedAt = std::chrono::steady_clock::now();
  impl_->thread = std::thread([this] { impl_->threadMain(); });
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
  roundsWithoutImprovement = 0;
  oneMoreRound = true;
}

void AgentLoop::step() {
  bool launch = false;
  {
    std::lock_guard lock(impl_->mutex);
    if (impl_->finished && !impl_->options.exitWhenFinished) {
      // Finished (e.g. after a roll back): one step starts the next round and pauses after generation.
      impl_->reopenAfterFinish();
      impl_->pauseRequested = true;
      impl_->stepGrants = 1;
    } else if (impl_->state == AgentState::Paused) {
      ++impl_->stepGrants;
    } else if (!impl_->threadRunning && !impl_->threadDone) {
      impl_->pauseRequested = true;
      impl_->stepGrants = 1;
      launch = true;
    } else {
      impl_->pauseRequested = true;
    }
    impl_->cv.notify_all();
  }
  if (launch) {
    std::lock_guard lock(impl_->mutex);
    impl_->threadRunning = true;
    impl_->startedAt = std::chrono::steady_clock::now();
    impl_->thread = std::thread([this] { impl_->threadMain(); });
  }
}

void AgentLoop::stop() {
  std::lock_guard lock(impl_->mutex);
  impl_->stopRequested = true;
  impl_->cv.notify_all();
}

void AgentLoop::queueHint(std::string text) {
  std::lock_guard lock(impl_->mutex);
  if (!impl_->hint.empty() && !text.empty()) impl_->hint += "\n";
  impl_->hint += text;
}

void AgentLoop::submitEdit(Candidate candidate, std::optional<int> parentId) {
  candidate.origin = Origin::Human;
  bool launch = false;
  {
    std::lock_guard lock(impl_->mutex);
    impl_->edits.emplace_back(std::move(candidate), parentId);
    if (!impl_->threadRunning && !impl_->threadDone && !impl_->stopRequested) {
      // Not started: evaluate the edit, then wait paused for start()/resume().
      impl_->pauseRequested = true;
      impl_->threadRunning = true;
      impl_->startedAt = std::chrono::steady_clock::now();
      launch = true;
    }
    impl_->cv.notify_all();
  }
  if (launch) {
    std::lock_guard lock(impl_->mutex);
    impl_->thread = std::thread([this] { impl_->threadMain(); });
  }
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
  CannExportOptions eo;
  eo.soc = s.settings.soc.empty() ? impl_->task.soc : s.settings.soc;
  const fs::path dir = exportCannProject(impl_->task, *it, exportDir, eo);
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
  const Session s = impl_->store.session();
  std::optional<int> best;
  double bestUs = 0;
  for (const auto& it : s.iterations) {
    if (it.verdict != Verdict::Pass) continue;
    const double us = iterationTimeUs(it).value_or(1e300);
    if (!best || us < bestUs) {
      best = it.id;
      bestUs = us;
    }
  }
  return best;
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

bool AgentLoop::Impl::takeEdit(std::pair<Candidate, std::optional<int>>& out) {
  if (edits.empty()) return false;
  out = std::move(edits.front());
  edits.pop_front();
  return true;
}

void AgentLoop::Impl::checkpoint() {
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
    cv.wait(lock, [&] { return stopRequested || !pauseRequested || stepGrants > 0 || !edits.empty(); });
    if (stopRequested) throw AgentStopRequested{};
    std::pair<Candidate, std::optional<int>> edit;
    if (takeEdit(edit)) {
      lock.unlock();
      runEdit(std::move(edit.first), edit.second);
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
    for (int id : interrupted) {
      auto it = store.iteration(id);
      if (!it) continue;
      setState(AgentState::Compiling, id,
               "re-evaluating iteration " + std::to_string(id) + " after an interruption");
      evaluateIteration(*it, store.session().constraints, false);
    }
    interrupted.clear();
    rebuildHead();
    for (;;) {
      std::pair<Candidate, std::optional<int>> edit;
      bool haveEdit = false;
      {
        std::lock_guard lock(mutex);
        if (stopRequested) break;
        haveEdit = takeEdit(edit);
      }
      if (haveEdit) {
        runEdit(std::move(edit.first), edit.second);
        continue;
      }
      {
        std::unique_lock lock(mutex);
        if (finished) {
          if (options.exitWhenFinished) break;
          lock.unlock();
          setState(AgentState::Finished, std::nullopt, finishReason);
          lock.lock();
          cv.wait(lock, [&] { return stopRequested || !edits.empty() || !finished; });
          continue;
        }
      }
      checkpoint();  // between rounds
      std::string why;
      bool forced = false;
      {
        std::lock_guard lock(mutex);
        forced = std::exchange(oneMoreRound, false);
      }
      if (!forced && limitsReached(why)) {
        std::lock_guard lock(mutex);
        finished = true;
        finishReason = why;
        continue;
      }
      runRound();
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

std::optional<double> AgentLoop::Impl::baselineUs(const Session& s) const {
  if (s.task.baseline && s.task.baseline->latencyUs > 0) return s.task.baseline->latencyUs;
  for (const auto& it : s.iterations)
    if (it.verdict == Verdict::Pass)
      if (auto us = iterationTimeUs(it)) return us;
  return std::nullopt;
}

bool AgentLoop::Impl::limitsReached(std::string& why) {
  const Session s = store.session();
  const SessionLimits& L = s.settings.limits;
  const bool anyBudget = L.maxIterations || L.maxTokens || L.maxSeconds;
  const int maxIt = L.maxIterations ? *L.maxIterations : (anyBudget ? 0 : options.defaultMaxIterations);
  // Interrupted iterations (stopped by the engineer, a kill or a crash before they finished) did not
  // use the budget they were started with: only the others count.
  const auto counted = std::count_if(s.iterations.begin(), s.iterations.end(),
                                     [](const Iteration& it) { return it.state != IterationState::Stopped; });
  if (maxIt > 0 && static_cast<int>(counted) >= maxIt) {
    why = "iteration budget (" + std::to_string(maxIt) + ") reached";
    return true;
  }
  if (L.maxTokens) {
    std::int64_t used = 0;
    for (const auto& it : s.iterations)
      if (it.usage) used += it.usage->promptTokens + it.usage->completionTokens;
    if (used >= *L.maxTokens) {
      why = "token budget (" + std::to_string(*L.maxTokens) + ") reached";
      return true;
    }
  }
  if (L.maxSeconds) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - startedAt).count();
    if (elapsed >= *L.maxSeconds) {
      why = "time budget reached";
      return true;
    }
  }
  std::optional<double> bestUs;
  for (const auto& it : s.iterations)
    if (it.verdict == Verdict::Pass)
      if (auto us = iterationTimeUs(it); us && (!bestUs || *us < *bestUs)) bestUs = us;
  const auto base = baselineUs(s);
  if (L.targetSpeedup && bestUs && base) {
    const double speedup = *base / *bestUs;
    if (speedup >= *L.targetSpeedup) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "target speedup %.2fx reached (%.2fx)", *L.targetSpeedup, speedup);
      why = buf;
      return true;
    }
  }
  const int patience = L.patience ? *L.patience : options.defaultPatience;
  std::lock_guard lock(mutex);
  if (patience > 0 && roundsWithoutImprovement >= patience) {
    why = "no improvement for " + std::to_string(patience) + " rounds";
    return true;
  }
  return false;
}

void AgentLoop::Impl::recoverInterrupted() {
  const Session s = store.session();
  for (const auto& it : s.iterations) {
    if (isFinal(it.state)) continue;
    if (!it.candidate.empty() && it.state != IterationState::Generating) {
      interrupted.push_back(it.id);
      continue;
    }
    Iteration copy = it;
    copy.state = IterationState::Stopped;
    copy.notes +=
        (copy.notes.empty() ? "" : "\n") + std::string("interrupted before its candidate was complete");
    copy.updatedAt = nowIso8601();
    store.saveIteration(copy);
  }
}

void AgentLoop::Impl::rebuildHead() {
  const Session s = store.session();
  std::optional<int> best;
  double bestUs = 0;
  std::optional<int> latest;
  for (const auto& it : s.iterations) {
    if (!isFinal(it.state) || it.candidate.empty()) continue;
    latest = it.id;
    if (it.verdict == Verdict::Pass) {
      const double us = iterationTimeUs(it).value_or(1e300);
      if (!best || us < bestUs) {
        best = it.id;
        bestUs = us;
      }
    }
  }
  std::lock_guard lock(mutex);
  head = best ? best : latest;
}

}  // namespace kwb
