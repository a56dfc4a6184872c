// SPDX-License-Identifier: MIT
#include "core/agent/RoundPolicy.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "core/agent/AgentEvents.h"
#include "core/agent/SessionSummary.h"

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

double timeOrInfinity(const Iteration& it) {
  return iterationTimeUs(it).value_or(1e300);
}

}  // namespace

std::optional<double> iterationTimeUs(const Iteration& it) {
  if (!it.profile || it.profile->totalUs <= 0) return std::nullopt;
  return it.profile->totalUs;
}

std::optional<int> RoundPolicy::initialHead(const Session& s, std::optional<int> preferred) const {
  // A reopened session continues from what the engineer chose (docs/workbench.md, "Sessions").
  for (const std::optional<int>& chosen : {preferred, s.acceptedIteration}) {
    const Iteration* it = chosen ? s.findIteration(*chosen) : nullptr;
    if (it && isFinal(it->state) && !it->candidate.empty()) return it->id;
  }
  std::optional<int> best;
  double bestUs = 0;
  std::optional<int> latest;
  for (const auto& it : s.iterations) {
    if (!isFinal(it.state) || it.candidate.empty()) continue;
    latest = it.id;
    if (it.verdict == Verdict::Pass) {
      const double us = timeOrInfinity(it);
      if (!best || us < bestUs) {
        best = it.id;
        bestUs = us;
      }
    }
  }
  return best ? best : latest;
}

RoundPlan RoundPolicy::plan(const Session& s, const LoopProgress& progress, std::string hint) const {
  RoundPlan p;
  p.parentId = progress.head;
  p.lastAttemptId = progress.lastAttempt;
  p.hint = std::move(hint);
  p.constraints = s.constraints;
  p.baselineUs = sessionBaselineUs(s);
  p.afterRollback = progress.afterRollback;
  const Iteration* parent = progress.head ? s.findIteration(*progress.head) : nullptr;
  if (!parent || parent->candidate.empty())
    p.mode = PromptMode::Initial;
  else if (parent->verdict == Verdict::Pass)
    p.mode = PromptMode::Optimize;
  else
    p.mode = PromptMode::Repair;
  return p;
}

std::optional<std::string> RoundPolicy::limitReached(const Session& s, const LoopProgress& progress,
                                                     double elapsedSeconds) const {
  const SessionLimits& L = s.settings.limits;
  const bool anyBudget = L.maxIterations || L.maxTokens || L.maxSeconds;
  const int maxIt = L.maxIterations ? *L.maxIterations : (anyBudget ? 0 : config_.defaultMaxIterations);
  // Interrupted iterations (stopped by the engineer, a kill or a crash before they finished) did not
  // use the budget they were started with: only the others count.
  const auto counted = std::count_if(s.iterations.begin(), s.iterations.end(),
                                     [](const Iteration& it) { return it.state != IterationState::Stopped; });
  if (maxIt > 0 && static_cast<int>(counted) >= maxIt)
    return "iteration budget (" + std::to_string(maxIt) + ") reached";
  if (L.maxTokens) {
    std::int64_t used = 0;
    for (const auto& it : s.iterations)
      if (it.usage) used += it.usage->promptTokens + it.usage->completionTokens;
    if (used >= *L.maxTokens) return "token budget (" + std::to_string(*L.maxTokens) + ") reached";
  }
  if (L.maxSeconds && elapsedSeconds >= *L.maxSeconds) return std::string("time budget reached");
  std::optional<double> bestUs;
  for (const auto& it : s.iterations)
    if (it.verdict == Verdict::Pass)
      if (auto us = iterationTimeUs(it); us && (!bestUs || *us < *bestUs)) bestUs = us;
  const auto base = sessionBaselineUs(s);
  if (L.targetSpeedup && bestUs && base) {
    const double speedup = *base / *bestUs;
    if (speedup >= *L.targetSpeedup) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "target speedup %.2fx reached (%.2fx)", *L.targetSpeedup, speedup);
      return std::string(buf);
    }
  }
  const int patience = L.patience ? *L.patience : config_.defaultPatience;
  if (patience > 0 && progress.roundsWithoutImprovement >= patience)
    return "no improvement for " + std::to_string(patience) + " rounds";
  return std::nullopt;
}

RoundDecision RoundPolicy::decide(const Session& s, const RoundPlan& plan, const std::vector<int>& ids,
                                  const LoopProgress& now) const {
  RoundDecision out{now, std::nullopt};
  LoopProgress& p = out.progress;
  // This round was the branch the roll back asked for; a roll back during the round moved the head.
  if (now.head == plan.parentId) p.afterRollback = false;
  std::vector<const Iteration*> results;
  for (int id : ids)
    if (const Iteration* it = s.findIteration(id)) results.push_back(it);
  // An LLM or workbench failure of every candidate: nothing to build on, and retrying blindly burns the
  // budget. The loop stops with the error so the engineer can fix the endpoint and resume.
  const bool allFailed = !results.empty() &&
                         std::all_of(results.begin(), results.end(),
                                     [](const Iteration* it) { return it->state == IterationState::Failed; });
  if (allFailed) {
    const Iteration& first = *results.front();
    const bool llmFailure = !first.diagnostics.empty() && first.diagnostics.back().category == "llm-error";
    if (llmFailure)
      out.finish = std::string(kLlmFailurePrefix) + " in iteration " + std::to_string(first.id) + ": " +
                   first.diagnostics.back().message;
    else
      out.finish =
          "the workbench could not complete iteration " + std::to_string(first.id) + ": " +
          (first.diagnostics.empty() ? std::string("see its log") : first.diagnostics.back().message);
    return out;
  }
  // The engineer moved the base during the round (an edit evaluated at a boundary): it wins.
  if (now.head != plan.parentId) return out;
  const Iteration* bestPass = nullptr;
  for (const Iteration* it : results) {
    if (it->verdict != Verdict::Pass) continue;
    if (!bestPass || timeOrInfinity(*it) < timeOrInfinity(*bestPass)) bestPass = it;
  }
  const Iteration* parent = plan.parentId ? s.findIteration(*plan.parentId) : nullptr;
  if (plan.mode != PromptMode::Optimize) {
    if (bestPass) {
      p.head = bestPass->id;
      p.lastAttempt.reset();
      p.roundsWithoutImprovement = 0;
      return out;
    }
    // Still failing: repair the most promising attempt next (ties: the first of the round).
    const Iteration* pick = nullptr;
    for (const Iteration* it : results)
      if (!pick || failureRank(*it) < failureRank(*pick)) pick = it;
    if (pick && !pick->candidate.empty()) {
      p.head = pick->id;
      p.lastAttempt.reset();
    } else if (pick) {
      p.lastAttempt = pick->id;  // a reply without code: keep the base, tell the model
    }
    return out;
  }
  // Optimising: keep the faster correct candidate, otherwise keep the base and report the attempt.
  const double baseUs = parent ? timeOrInfinity(*parent) : 1e300;
  if (bestPass && timeOrInfinity(*bestPass) < baseUs * (1.0 - config_.minImprovement)) {
    p.head = bestPass->id;
    p.lastAttempt.reset();
    p.roundsWithoutImprovement = 0;
    return out;
  }
  ++p.roundsWithoutImprovement;
  const Iteration* shown = bestPass;
  if (!shown)
    for (const Iteration* it : results)
      if (!shown || failureRank(*it) < failureRank(*shown)) shown = it;
  if (shown) p.lastAttempt = shown->id;
  return out;
}

LoopProgress RoundPolicy::rolledBack(int target) {
  return LoopProgress{target, std::nullopt, 0, true};
}

LoopProgress RoundPolicy::afterEdit(int editId) {
  return LoopProgress{editId, std::nullopt, 0};
}

}  // namespace kwb
