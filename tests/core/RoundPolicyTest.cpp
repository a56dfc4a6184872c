// SPDX-License-Identifier: MIT
// RoundPolicy on constructed session snapshots: no loop, no threads, no I/O (docs/architecture.md,
// "The agent loop").
#include <gtest/gtest.h>

#include "core/agent/RoundPolicy.h"

namespace kwb {
namespace {

Iteration done(int id, std::optional<Verdict> verdict, std::optional<double> us = std::nullopt,
               std::optional<int> parent = std::nullopt) {
  Iteration it;
  it.id = id;
  it.parentId = parent;
  it.state = IterationState::Done;
  it.verdict = verdict;
  it.candidate.files["kernel.cpp"] = "// " + std::to_string(id) + "\n";
  if (us) {
    ProfileReport p;
    p.totalUs = *us;
    it.profile = p;
  }
  return it;
}

Iteration noCode(int id) {
  Iteration it = done(id, Verdict::Rejected);
  it.candidate.files.clear();
  return it;
}

Iteration failed(int id, const std::string& why) {
  Iteration it = done(id, std::nullopt);
  it.state = IterationState::Failed;
  Diagnostic d;
  d.message = why;
  it.diagnostics.push_back(d);
  return it;
}

Session session(std::vector<Iteration> its, SessionLimits limits = {}) {
  Session s;
  s.iterations = std::move(its);
  s.settings.limits = limits;
  return s;
}

const RoundPolicy policy{};

TEST(RoundPolicy, InitialHeadIsTheFastestPassElseTheLatestFinishedCandidate) {
  EXPECT_EQ(policy.initialHead(session({})), std::nullopt);
  EXPECT_EQ(policy.initialHead(session({done(1, Verdict::CompileError), done(2, Verdict::WrongAnswer)})), 2);
  EXPECT_EQ(policy.initialHead(session(
                {done(1, Verdict::Pass, 40), done(2, Verdict::Pass, 30), done(3, Verdict::Pass, 30)})),
            2);  // ties: the earliest
  EXPECT_EQ(policy.initialHead(session({done(1, Verdict::Pass, 40), done(2, Verdict::WrongAnswer)})), 1);
  Iteration running = done(3, std::nullopt);
  running.state = IterationState::Running;
  EXPECT_EQ(policy.initialHead(session({done(1, Verdict::WrongAnswer), running})), 1);    // not finished
  EXPECT_EQ(policy.initialHead(session({done(1, Verdict::WrongAnswer), noCode(2)})), 1);  // no candidate
}

TEST(RoundPolicy, InitialHeadOfAReopenedSessionIsTheChosenThenTheAcceptedIteration) {
  Session s = session(
      {done(1, Verdict::WrongAnswer), done(2, Verdict::Pass, 50), done(3, Verdict::Pass, 30), noCode(4)});
  EXPECT_EQ(policy.initialHead(s), 3);  // nothing chosen: the fastest pass
  s.acceptedIteration = 2;
  EXPECT_EQ(policy.initialHead(s), 2);      // the accepted one, though slower
  EXPECT_EQ(policy.initialHead(s, 1), 1);   // the one the engineer left selected wins, even failing
  EXPECT_EQ(policy.initialHead(s, 4), 2);   // a selection without code is no base
  EXPECT_EQ(policy.initialHead(s, 99), 2);  // nor is an unknown one
  Iteration running = done(5, std::nullopt);
  running.state = IterationState::Running;
  s.iterations.push_back(running);
  EXPECT_EQ(policy.initialHead(s, 5), 2);  // nor one that never finished
  s.acceptedIteration = 99;
  EXPECT_EQ(policy.initialHead(s), 3);
}

TEST(RoundPolicy, PlanModeFollowsTheHead) {
  const Session s = session({done(1, Verdict::CompileError), done(2, Verdict::Pass, 50), noCode(3)});
  EXPECT_EQ(policy.plan(s, {}, "").mode, PromptMode::Initial);
  EXPECT_EQ(policy.plan(s, {1, std::nullopt, 0}, "").mode, PromptMode::Repair);
  EXPECT_EQ(policy.plan(s, {2, std::nullopt, 0}, "").mode, PromptMode::Optimize);
  EXPECT_EQ(policy.plan(s, {3, std::nullopt, 0}, "").mode, PromptMode::Initial);   // no code to build on
  EXPECT_EQ(policy.plan(s, {99, std::nullopt, 0}, "").mode, PromptMode::Initial);  // unknown head
  const RoundPlan p = policy.plan(s, {2, 3, 1}, "use DataCopyPad");
  EXPECT_EQ(p.parentId, 2);
  EXPECT_EQ(p.lastAttemptId, 3);
  EXPECT_EQ(p.hint, "use DataCopyPad");
}

TEST(RoundPolicy, PlanCarriesConstraintsAndTheBaseline) {
  Session s =
      session({done(1, Verdict::WrongAnswer), done(2, Verdict::Pass, 80), done(3, Verdict::Pass, 60)});
  s.constraints.push_back(Constraint::rule("Keep two buffers."));
  RoundPlan p = policy.plan(s, {3, std::nullopt, 0}, "");
  ASSERT_EQ(p.constraints.size(), 1u);
  EXPECT_EQ(p.baselineUs, 80.0);  // the first passing iteration without a task baseline
  Baseline b;
  b.latencyUs = 120;
  s.task.baseline = b;
  EXPECT_EQ(policy.plan(s, {3, std::nullopt, 0}, "").baselineUs, 120.0);
  EXPECT_EQ(policy.plan(session({done(1, Verdict::WrongAnswer)}), {}, "").baselineUs, std::nullopt);
}

TEST(RoundPolicy, DefaultIterationBudgetAppliesOnlyWithoutAnyBudget) {
  std::vector<Iteration> its;
  for (int i = 1; i <= 20; ++i) its.push_back(done(i, Verdict::WrongAnswer));
  EXPECT_EQ(policy.limitReached(session(its), {}, 0), "iteration budget (20) reached");
  its.pop_back();
  EXPECT_EQ(policy.limitReached(session(its), {}, 0), std::nullopt);
  its.push_back(done(20, Verdict::WrongAnswer));
  SessionLimits tokens;
  tokens.maxTokens = 1'000'000;
  EXPECT_EQ(policy.limitReached(session(its, tokens), {}, 0), std::nullopt);  // a token budget replaces it
  const RoundPolicy small(RoundPolicyConfig{3, 5, 0.02});
  EXPECT_EQ(
      small.limitReached(session({done(1, {}), done(2, {}), done(3, {}), done(4, {}), done(5, {})}), {}, 0),
      "iteration budget (5) reached");
}

TEST(RoundPolicy, ExplicitBudgets) {
  SessionLimits l;
  l.maxIterations = 2;
  EXPECT_EQ(policy.limitReached(session({done(1, {})}, l), {}, 0), std::nullopt);
  EXPECT_EQ(policy.limitReached(session({done(1, {}), done(2, {})}, l), {}, 0),
            "iteration budget (2) reached");

  SessionLimits t;
  t.maxTokens = 1000;
  Iteration a = done(1, Verdict::WrongAnswer);
  a.usage = LlmUsage{600, 300, "m", "replay", 1};
  EXPECT_EQ(policy.limitReached(session({a}, t), {}, 0), std::nullopt);
  Iteration b = done(2, Verdict::WrongAnswer);
  b.usage = LlmUsage{50, 50, "m", "replay", 1};
  EXPECT_EQ(policy.limitReached(session({a, b}, t), {}, 0), "token budget (1000) reached");

  SessionLimits secs;
  secs.maxSeconds = 60;
  EXPECT_EQ(policy.limitReached(session({}, secs), {}, 59.9), std::nullopt);
  EXPECT_EQ(policy.limitReached(session({}, secs), {}, 60.0), "time budget reached");
}

TEST(RoundPolicy, TargetSpeedupAgainstTheBaseline) {
  SessionLimits l;
  l.maxIterations = 50;
  l.targetSpeedup = 2.0;
  Session s = session({done(1, Verdict::Pass, 100), done(2, Verdict::Pass, 60)}, l);
  EXPECT_EQ(policy.limitReached(s, {}, 0), std::nullopt);  // 1.67x of the first pass
  s.iterations.push_back(done(3, Verdict::Pass, 50));
  EXPECT_EQ(policy.limitReached(s, {}, 0), "target speedup 2.00x reached (2.00x)");
  Baseline b;
  b.latencyUs = 300;
  s.task.baseline = b;
  s.iterations.pop_back();
  EXPECT_EQ(policy.limitReached(s, {}, 0), "target speedup 2.00x reached (5.00x)");
}

TEST(RoundPolicy, Patience) {
  SessionLimits l;
  l.maxIterations = 50;
  const Session s = session({done(1, Verdict::Pass, 10)}, l);
  EXPECT_EQ(policy.limitReached(s, {1, std::nullopt, 2}, 0), std::nullopt);
  EXPECT_EQ(policy.limitReached(s, {1, std::nullopt, 3}, 0), "no improvement for 3 rounds");  // default
  l.patience = 5;
  EXPECT_EQ(policy.limitReached(session({done(1, Verdict::Pass, 10)}, l), {1, std::nullopt, 4}, 0),
            std::nullopt);
  l.patience = 0;  // off
  EXPECT_EQ(policy.limitReached(session({done(1, Verdict::Pass, 10)}, l), {1, std::nullopt, 99}, 0),
            std::nullopt);
}

TEST(RoundPolicy, EveryCandidateFailingInTheWorkbenchFinishesTheLoop) {
  const Session s = session({failed(1, "connection refused"), failed(2, "timeout")});
  RoundPlan plan;
  const RoundDecision d = policy.decide(s, plan, {1, 2}, {});
  ASSERT_TRUE(d.finish);
  EXPECT_EQ(*d.finish, "the workbench could not complete iteration 1: connection refused");
  // One good candidate among them: no finish.
  const Session mixed = session({failed(1, "x"), done(2, Verdict::WrongAnswer)});
  EXPECT_FALSE(policy.decide(mixed, plan, {1, 2}, {}).finish);
  EXPECT_FALSE(policy.decide(mixed, plan, {}, {}).finish);  // no iteration at all: nothing to judge
}

TEST(RoundPolicy, AnEngineerMovedBaseWins) {
  const Session s =
      session({done(1, Verdict::WrongAnswer), done(2, Verdict::Pass, 40), done(3, Verdict::Pass, 30)});
  RoundPlan plan;
  plan.mode = PromptMode::Repair;
  plan.parentId = 1;
  const LoopProgress now{2, std::nullopt, 0};  // an edit (iteration 2) became the base meanwhile
  EXPECT_EQ(policy.decide(s, plan, {3}, now).progress, now);
}

TEST(RoundPolicy, RepairKeepsAPassElseTheMostPromisingFailure) {
  RoundPlan plan;
  plan.mode = PromptMode::Repair;
  plan.parentId = 1;
  const LoopProgress start{1, 7, 2};
  Session s = session({done(1, Verdict::CompileError), done(2, Verdict::Pass, 50)});
  EXPECT_EQ(policy.decide(s, plan, {2}, start).progress, (LoopProgress{2, std::nullopt, 0}));
  // Closer to running first: wrong answer beats runtime error beats timeout beats compile error.
  s = session({done(1, Verdict::CompileError), done(2, Verdict::CompileError), done(3, Verdict::Timeout),
               done(4, Verdict::WrongAnswer), done(5, Verdict::RuntimeError)});
  EXPECT_EQ(policy.decide(s, plan, {2, 3, 4, 5}, start).progress.head, 4);
  EXPECT_EQ(policy.decide(s, plan, {2, 3}, start).progress.head, 3);
  EXPECT_EQ(policy.decide(s, plan, {2}, start).progress.head, 2);
  // A reply without code keeps the base and becomes the last attempt.
  s = session({done(1, Verdict::CompileError), noCode(2)});
  EXPECT_EQ(policy.decide(s, plan, {2}, start).progress, (LoopProgress{1, 2, 2}));
  // Initial mode is decided like repair.
  plan.mode = PromptMode::Initial;
  plan.parentId.reset();
  EXPECT_EQ(policy.decide(session({done(1, Verdict::WrongAnswer)}), plan, {1}, {}).progress.head, 1);
}

TEST(RoundPolicy, OptimiseKeepsOnlyAClearlyFasterPass) {
  RoundPlan plan;
  plan.mode = PromptMode::Optimize;
  plan.parentId = 1;
  const LoopProgress start{1, std::nullopt, 1};
  // 2 % faster is required (minImprovement): 98.5 us is not, 97 us is.
  Session s = session({done(1, Verdict::Pass, 100), done(2, Verdict::Pass, 98.5)});
  EXPECT_EQ(policy.decide(s, plan, {2}, start).progress, (LoopProgress{1, 2, 2}));
  s = session({done(1, Verdict::Pass, 100), done(2, Verdict::Pass, 97)});
  EXPECT_EQ(policy.decide(s, plan, {2}, start).progress, (LoopProgress{2, std::nullopt, 0}));
  // A slower or failing candidate: the base stays, the attempt is shown next time.
  s = session({done(1, Verdict::Pass, 100), done(2, Verdict::WrongAnswer), done(3, Verdict::CompileError)});
  EXPECT_EQ(policy.decide(s, plan, {3, 2}, start).progress, (LoopProgress{1, 2, 2}));
  // Best-of-N: the fastest pass of the round.
  s = session({done(1, Verdict::Pass, 100), done(2, Verdict::Pass, 60), done(3, Verdict::Pass, 40),
               done(4, Verdict::Pass, 70)});
  EXPECT_EQ(policy.decide(s, plan, {2, 3, 4}, start).progress.head, 3);
  const RoundPolicy lax(RoundPolicyConfig{3, 20, 0.0});
  s = session({done(1, Verdict::Pass, 100), done(2, Verdict::Pass, 99.9)});
  EXPECT_EQ(lax.decide(s, plan, {2}, start).progress.head, 2);
}

TEST(RoundPolicy, RollBackAndEditResetTheProgress) {
  EXPECT_EQ(RoundPolicy::rolledBack(3), (LoopProgress{3, std::nullopt, 0, true}));
  EXPECT_EQ(RoundPolicy::afterEdit(9), (LoopProgress{9, std::nullopt, 0}));
}

// The round after a roll back records it on its iterations (the timeline tells the engineer's branch
// from the agent building on its best again); the round after that does not.
TEST(RoundPolicy, TheRoundAfterARollBackIsMarked) {
  Session s = session({done(1, Verdict::Pass, 100), done(2, Verdict::Pass, 90)});
  const LoopProgress back = RoundPolicy::rolledBack(1);
  const RoundPlan plan = policy.plan(s, back, {});
  EXPECT_TRUE(plan.afterRollback);
  EXPECT_EQ(plan.parentId, 1);
  s = session({done(1, Verdict::Pass, 100), done(2, Verdict::Pass, 90), done(3, Verdict::Pass, 95)});
  const RoundDecision next = policy.decide(s, plan, {3}, back);
  EXPECT_FALSE(next.progress.afterRollback);
  EXPECT_FALSE(policy.plan(s, next.progress, {}).afterRollback);
  // A roll back during the round (the head moved) is kept for the next one.
  const RoundDecision moved = policy.decide(s, plan, {3}, RoundPolicy::rolledBack(2));
  EXPECT_TRUE(moved.progress.afterRollback);
}

TEST(RoundPolicy, IterationTimes) {
  EXPECT_EQ(iterationTimeUs(done(1, Verdict::Pass, 0)), std::nullopt);
  EXPECT_EQ(iterationTimeUs(done(1, Verdict::Pass)), std::nullopt);
  EXPECT_EQ(iterationTimeUs(done(1, Verdict::Pass, 12.5)), 12.5);
}

}  // namespace
}  // namespace kwb
