// One round of the loop: plan (parent, mode, hint, constraints), N candidates in parallel, decide.
#include <algorithm>
#include <cstdio>
#include <future>

#include "core/agent/AgentLoopImpl.h"

namespace kwb {

namespace {
// How promising a failed candidate is as the base of the next repair: closer to running first.
int failureRank(const Iteration& it) {
  if (!it.verdict || it.candidate.empty()) return 100;
  switch (*it.verdict) {
    case Verdict::Pass:
      return 0;
    case Verdict::WrongAnswer:
      return 1;
    case Verdict::RuntimeError:
      return 2;
    case Verdict::Timeout:
      return 3;
    case Verdict::CompileError:
      return 4;
    case Verdict::Rejected:
      return 5;
  }
  return 100;
}
}  // namespace

RoundPlan AgentLoop::Impl::planRound() {
  RoundPlan p;
  const Session s = store.session();
  std::lock_guard lock(mutex);
  if (rollbackTarget) {
    head = rollbackTarget;
    rollbackTarget.reset();
    lastAttempt.reset();
    roundsWithoutImprovement = 0;
  }
  p.parentId = head;
  p.lastAttemptId = lastAttempt;
  p.hint = std::move(hint);
  hint.clear();
  p.constraints = s.constraints;
  p.baselineUs = baselineUs(s);
  const Iteration* parent = head ? s.findIteration(*head) : nullptr;
  if (!parent || parent->candidate.empty())
    p.mode = PromptMode::Initial;
  else if (parent->verdict == Verdict::Pass)
    p.mode = PromptMode::Optimize;
  else
    p.mode = PromptMode::Repair;
  return p;
}

void AgentLoop::Impl::runRound() {
  const RoundPlan plan = planRound();
  const Session s = store.session();
  const int n = std::max(1, s.settings.limits.candidatesPerRound);
  std::vector<int> ids;
  if (n == 1) {
    ids.push_back(runAgentIteration(plan));
  } else {
    // A small worker pool: one worker per candidate of the round (N is small by design).
    std::vector<std::future<int>> futures;
    for (int k = 0; k < n; ++k)
      futures.push_back(std::async(std::launch::async, [this, &plan] { return runAgentIteration(plan); }));
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
  decide(plan, ids);
  checkpoint();  // after deciding
}

void AgentLoop::Impl::decide(const RoundPlan& plan, const std::vector<int>& ids) {
  const Session s = store.session();
  std::vector<const Iteration*> results;
  for (int id : ids)
    if (const Iteration* it = s.findIteration(id)) results.push_back(it);
  // An LLM or workbench failure of every candidate: nothing to build on, and retrying blindly burns the
  // budget. The loop stops with the error so the engineer can fix the endpoint and resume.
  const bool allFailed = !results.empty() &&
                         std::all_of(results.begin(), results.end(),
                                     [](const Iteration* it) { return it->state == IterationState::Failed; });
  std::lock_guard lock(mutex);
  if (allFailed) {
    finished = true;
    const Iteration& first = *results.front();
    const bool llmFailure = !first.diagnostics.empty() && first.diagnostics.back().category == "llm-error";
    if (llmFailure)
      finishReason = std::string(kLlmFailurePrefix) + " in iteration " + std::to_string(first.id) + ": " +
                     first.diagnostics.back().message;
    else
      finishReason =
          "the workbench could not complete iteration " + std::to_string(first.id) + ": " +
          (first.diagnostics.empty() ? std::string("see its log") : first.diagnostics.back().message);
    return;
  }
  // The engineer moved the base during the round (an edit evaluated while paused): it wins.
  if (head != plan.parentId) return;
  const Iteration* bestPass = nullptr;
  for (const Iteration* it : results) {
    if (it->verdict != Verdict::Pass) continue;
    if (!bestPass || iterationTimeUs(*it).value_or(1e300) < iterationTimeUs(*bestPass).value_or(1e300))
      bestPass = it;
  }
  const Iteration* parent = plan.parentId ? s.findIteration(*plan.parentId) : nullptr;
  if (plan.mode != PromptMode::Optimize) {
    if (bestPass) {
      head = bestPass->id;
      lastAttempt.reset();
      roundsWithoutImprovement = 0;
      return;
    }
    // Still failing: repair the most promising attempt next (ties: the first of the round).
    const Iteration* pick = nullptr;
    for (const Iteration* it : results)
      if (!pick || failureRank(*it) < failureRank(*pick)) pick = it;
    if (pick && !pick->candidate.empty()) {
      head = pick->id;
      lastAttempt.reset();
    } else if (pick) {
      lastAttempt = pick->id;  // a reply without code: keep the base, tell the model
    }
    return;
  }
  // Optimising: keep the faster correct candidate, otherwise keep the base and report the attempt.
  const double baseUs = parent ? iterationTimeUs(*parent).value_or(1e300) : 1e300;
  if (bestPass && iterationTimeUs(*bestPass).value_or(1e300) < baseUs * (1.0 - options.minImprovement)) {
    head = bestPass->id;
    lastAttempt.reset();
    roundsWithoutImprovement = 0;
    return;
  }
  ++roundsWithoutImprovement;
  const Iteration* shown = bestPass;
  if (!shown)
    for (const Iteration* it : results)
      if (!shown || failureRank(*it) < failureRank(*shown)) shown = it;
  if (shown) lastAttempt = shown->id;
}

}  // namespace kwb
