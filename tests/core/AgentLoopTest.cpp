// SPDX-License-Identifier: MIT
// The agent loop's control and steering (pause, step, stop, hint, edit, pin) and how it reads a reply
// (several files, several kernels), with a replayed model and a scripted evaluator
// (tests/core/AgentLoopFixture.h). The real emulator is exercised by AgentEndToEndTest and
// LessonReplayTest; rollback, accept, resume and best-of-N are in AgentLoopHistoryTest.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/core/AgentLoopFixture.h"

namespace kwb {
namespace {

using namespace agentloop_test;
using namespace std::chrono_literals;

TEST(AgentLoop, RepairsThenStopsAtTheIterationBudget) {
  Fixture f("repair", {reply("verdict=compile_error line=4"), reply("verdict=pass us=40")}, maxIt(2));
  auto loop = f.loop();
  loop->start();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  const Session s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 2u);
  EXPECT_EQ(s.iterations[0].verdict, Verdict::CompileError);
  EXPECT_EQ(s.iterations[1].verdict, Verdict::Pass);
  EXPECT_EQ(s.iterations[1].parentId, 1);
  EXPECT_EQ(s.iterations[1].origin, Origin::Replay);
  EXPECT_EQ(loop->bestIteration(), 2);
  EXPECT_NE(loop->finishReason().find("iteration budget (2)"), std::string::npos);
  EXPECT_EQ(loop->state(), AgentState::Finished);
  // The repair prompt carried the first candidate's diagnostic and source line.
  const std::string prompt2 =
      SessionStore::open(f.dir / "session", {OpenMode::ReadOnly}).readArtifact(2, "prompt.md");
  EXPECT_NE(prompt2.find("[compile-error] kernel.cpp:4"), std::string::npos);
  EXPECT_NE(prompt2.find(">>   4 | extern \"C\" __global__"), std::string::npos) << prompt2;
  EXPECT_GE(f.recorder.count<agent_event::IterationFinished>(), 2);
  EXPECT_GE(f.recorder.count<agent_event::TokenStreamed>(), 2);
}

// Each iteration's work folder (30-200 MB with a real evaluation) is removed once its evaluation ends;
// the artifacts the session format keeps are in the session by then.
TEST(AgentLoop, IterationWorkFoldersAreRemovedAndTheSessionKeepsItsArtifacts) {
  Fixture f("workdirs", {reply("verdict=pass us=40")}, maxIt(1));
  {
    auto loop = f.loop();
    loop->start();
    ASSERT_TRUE(loop->waitUntilDone(60s));
  }
  ASSERT_EQ(f.evaluator->workDirs.size(), 1u);
  EXPECT_FALSE(fs::exists(f.evaluator->workDirs[0])) << f.evaluator->workDirs[0];
  const auto store = SessionStore::open(f.dir / "session", {OpenMode::ReadOnly});
  EXPECT_NE(store.readArtifact(1, "trace.json").find("traceEvents"), std::string::npos);
  EXPECT_NE(store.readArtifact(1, "eval.json").find("\"work_dir_removed\": true"), std::string::npos);
}

TEST(AgentLoop, KeepWorkKeepsTheIterationFolders) {
  Fixture f("keepwork", {reply("verdict=pass us=40")}, maxIt(1));
  AgentLoopOptions o;
  o.keepWork = true;
  {
    auto loop = f.loop(o);
    loop->start();
    ASSERT_TRUE(loop->waitUntilDone(60s));
  }
  ASSERT_EQ(f.evaluator->workDirs.size(), 1u);
  EXPECT_TRUE(fs::exists(f.evaluator->workDirs[0] / "cases" / "c" / "trace.json"));
}

// The default work root is a fresh mkdtemp folder (not a guessable /tmp/kwb-agent-<pid>-N), removed
// with the loop.
TEST(AgentLoop, TheDefaultWorkRootIsUniqueAndRemovedWithTheLoop) {
  Fixture f("defaultroot", {reply("verdict=pass us=40")}, maxIt(1));
  {
    auto loop = f.loop({}, true);
    loop->start();
    ASSERT_TRUE(loop->waitUntilDone(60s));
  }
  ASSERT_EQ(f.evaluator->workDirs.size(), 1u);
  const fs::path root = f.evaluator->workDirs[0].parent_path();
  EXPECT_EQ(root.filename().string().rfind("kwb-agent-", 0), 0u) << root;
  EXPECT_NE(root.filename().string(), "kwb-agent-" + std::to_string(::getpid()) + "-0");
  EXPECT_FALSE(fs::exists(root)) << root;
}

TEST(AgentLoop, PauseTakesEffectAtAStepBoundaryAndStepRunsOneStep) {
  Fixture f("pause", {reply("verdict=wrong_answer category=wrong-answer"), reply("verdict=pass us=40")},
            maxIt(2));
  auto loop = f.loop();
  loop->step();  // before start: starts paused with one step granted
  ASSERT_TRUE(loop->waitForState(AgentState::Paused, 30s));
  // One step: the round started and generated; it now waits before compiling.
  Session s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 1u);
  EXPECT_EQ(s.iterations[0].state, IterationState::Compiling);
  EXPECT_TRUE(f.evaluator->evaluated.empty());
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(loop->state(), AgentState::Paused);  // nothing moves while paused
  EXPECT_TRUE(f.evaluator->evaluated.empty());
  loop->step();  // compile, then pause again before the run
  for (int k = 0; k < 1000; ++k) {
    {
      std::lock_guard lock(f.evaluator->mutex);
      if (!f.evaluator->evaluated.empty()) break;
    }
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_TRUE(loop->waitForState(AgentState::Paused, 30s));
  s = loop->snapshot();
  EXPECT_EQ(s.iterations[0].state, IterationState::Compiling);
  EXPECT_EQ(f.evaluator->evaluated.size(), 1u);
  loop->resume();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 2u);
  EXPECT_EQ(s.iterations[1].verdict, Verdict::Pass);
}

TEST(AgentLoop, StopIsFinalAndMarksTheIterationInFlight) {
  Fixture f("stop", {reply("verdict=pass us=40")}, maxIt(3));
  auto loop = f.loop();
  loop->step();
  ASSERT_TRUE(loop->waitForState(AgentState::Paused, 30s));
  loop->stop();
  ASSERT_TRUE(loop->waitUntilDone(30s));
  EXPECT_EQ(loop->state(), AgentState::Stopped);
  EXPECT_EQ(loop->finishReason(), "stopped");
  const Session s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 1u);
  EXPECT_EQ(s.iterations[0].state, IterationState::Stopped);
  EXPECT_TRUE(f.evaluator->evaluated.empty());
  loop->start();  // a stopped loop stays stopped
  EXPECT_TRUE(loop->waitUntilDone(1s));
  EXPECT_EQ(loop->snapshot().iterations.size(), 1u);
}

TEST(AgentLoop, QueuedHintGoesIntoTheNextPromptOnly) {
  Fixture f("hint",
            {reply("verdict=wrong_answer"), reply("verdict=wrong_answer"), reply("verdict=pass us=3")},
            maxIt(3));
  auto loop = f.loop();
  loop->queueHint("Use DataCopyPad for the tail tile.");
  loop->start();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  auto store = SessionStore::open(f.dir / "session", {OpenMode::ReadOnly});
  EXPECT_NE(store.readArtifact(1, "prompt.md").find("## Hint from the engineer"), std::string::npos);
  EXPECT_NE(store.readArtifact(1, "prompt.md").find("Use DataCopyPad for the tail tile."), std::string::npos);
  EXPECT_EQ(store.readArtifact(2, "prompt.md").find("Use DataCopyPad for the tail tile."), std::string::npos);
  EXPECT_EQ(store.session().iterations[0].hint, "Use DataCopyPad for the tail tile.");
}

TEST(AgentLoop, HumanEditIsEvaluatedLikeAnyOtherAndBecomesTheBase) {
  Fixture f("edit", {reply("verdict=wrong_answer"), reply("verdict=pass us=20")}, maxIt(3));
  auto loop = f.loop();
  loop->step();
  ASSERT_TRUE(loop->waitForState(AgentState::Paused, 30s));
  Candidate edit;
  edit.files["kernel.cpp"] = "// FAKE verdict=pass us=50\n// engineer's version\n";
  loop->submitEdit(edit, std::nullopt);  // evaluated while paused
  for (int k = 0; k < 300 && loop->snapshot().iterations.size() < 2; ++k) std::this_thread::sleep_for(20ms);
  for (int k = 0; k < 300; ++k) {
    const Session s = loop->snapshot();
    if (s.iterations.size() >= 2 && s.iterations[1].state == IterationState::Done) break;
    std::this_thread::sleep_for(20ms);
  }
  Session s = loop->snapshot();
  ASSERT_GE(s.iterations.size(), 2u);
  EXPECT_EQ(s.iterations[1].origin, Origin::Human);
  EXPECT_EQ(s.iterations[1].candidate.origin, Origin::Human);
  EXPECT_EQ(s.iterations[1].verdict, Verdict::Pass);
  EXPECT_TRUE(loop->waitForState(AgentState::Paused, 10s));
  loop->resume();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 3u);
  // The round after the edit optimises the engineer's passing kernel.
  EXPECT_EQ(s.iterations[2].parentId, 2);
  auto store = SessionStore::open(f.dir / "session", {OpenMode::ReadOnly});
  EXPECT_NE(store.readArtifact(3, "prompt.md").find("engineer's version"), std::string::npos);
  EXPECT_NE(store.readArtifact(3, "prompt.md").find("# optimize: add_custom"), std::string::npos);
}

// A human edit submitted while an agent candidate is being evaluated, with the loop paused inside that
// evaluation, is evaluated after it: never nested inside it (docs/architecture.md, "The agent loop").
TEST(AgentLoop, AnEditSubmittedDuringAnEvaluationIsEvaluatedAfterIt) {
  Fixture f("edit-during-eval", {reply("verdict=pass us=40 BLOCK")}, maxIt(2));
  auto loop = f.loop();
  loop->start();
  ASSERT_TRUE(f.evaluator->waitBlocked(30s));
  loop->pause();
  Candidate edit;
  edit.files["kernel.cpp"] = "// FAKE verdict=pass us=30\n// engineer's version\n";
  loop->submitEdit(edit, std::nullopt);
  f.evaluator->release();  // the evaluation goes on to its next boundary and pauses there
  ASSERT_TRUE(loop->waitForState(AgentState::Paused, 30s));
  std::this_thread::sleep_for(200ms);
  {
    std::lock_guard lock(f.evaluator->mutex);
    EXPECT_EQ(f.evaluator->evaluated.size(), 1u) << "the edit was evaluated inside the paused evaluation";
  }
  loop->resume();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  EXPECT_EQ(f.evaluator->maxActive, 1);
  ASSERT_EQ(f.evaluator->evaluated.size(), 2u);
  EXPECT_NE(f.evaluator->evaluated[0].find("BLOCK"), std::string::npos);
  EXPECT_NE(f.evaluator->evaluated[1].find("engineer's version"), std::string::npos);
  const Session s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 2u);
  EXPECT_EQ(s.iterations[0].origin, Origin::Replay);
  EXPECT_EQ(s.iterations[0].state, IterationState::Done);
  EXPECT_EQ(s.iterations[1].origin, Origin::Human);
  EXPECT_EQ(s.iterations[1].parentId, 1);  // it builds on what the agent's iteration made the base
  EXPECT_EQ(s.iterations[1].verdict, Verdict::Pass);
}

// start/step/submitEdit from several threads at once start one worker thread, never two (a second
// std::thread assigned over a running one ends the process).
TEST(AgentLoop, ConcurrentControlCallsStartOneWorker) {
  for (int trial = 0; trial < 40; ++trial) {
    Fixture f("launch-" + std::to_string(trial), {reply("verdict=pass us=40")}, maxIt(1));
    auto loop = f.loop();
    std::atomic<int> ready{0};
    std::vector<std::thread> callers;
    for (int k = 0; k < 6; ++k)
      callers.emplace_back([&, k] {
        ++ready;
        while (ready.load() < 6) std::this_thread::yield();
        if (k % 3 == 0) {
          loop->start();
        } else if (k % 3 == 1) {
          loop->step();
        } else {
          Candidate edit;
          edit.files["kernel.cpp"] = "// FAKE verdict=pass us=50\n";
          loop->submitEdit(edit, std::nullopt);
        }
      });
    for (auto& t : callers) t.join();
    EXPECT_EQ(loop->workerLaunches(), 1) << "trial " << trial;
    loop->stop();
    EXPECT_TRUE(loop->waitUntilDone(30s));
  }
}

TEST(AgentLoop, PinnedLockedRegionViolationIsRejectedWithoutRunning) {
  const std::string good = reply("verdict=pass us=40");
  std::string changed = good;
  changed.replace(changed.find("BUFFER_NUM = 2"), 14, "BUFFER_NUM = 1");
  Fixture f("pin", {changed, good}, maxIt(2));
  auto loop = f.loop();
  // Lock the BUFFER_NUM line of a candidate the engineer knows, and fix the parameter too.
  const std::string kernel = good.substr(good.find("#include"), good.rfind("```") - good.find("#include"));
  const int lockId = loop->pinConstraint(Constraint::lockRegion("kernel.cpp", kernel, 3, 3));
  loop->pinConstraint(Constraint::rule("Keep two buffers."));
  EXPECT_EQ(f.recorder.count<agent_event::ConstraintsChanged>(), 2);
  loop->start();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  const Session s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 2u);
  EXPECT_EQ(s.iterations[0].verdict, Verdict::Rejected);
  ASSERT_FALSE(s.iterations[0].diagnostics.empty());
  EXPECT_EQ(s.iterations[0].diagnostics[0].category, "policy-violation");
  EXPECT_EQ(s.iterations[0].diagnostics[0].constraintId, lockId);  // linked by id, not by its text
  EXPECT_FALSE(s.iterations[0].compile.has_value());
  EXPECT_EQ(s.iterations[1].verdict, Verdict::Pass);
  ASSERT_EQ(f.evaluator->evaluated.size(), 1u);  // the violating candidate never reached the evaluator
  auto store = SessionStore::open(f.dir / "session", {OpenMode::ReadOnly});
  const std::string p2 = store.readArtifact(2, "prompt.md");
  EXPECT_NE(p2.find("[policy-violation]"), std::string::npos);
  EXPECT_NE(p2.find("Rule: Keep two buffers."), std::string::npos) << p2;
  EXPECT_TRUE(loop->unpinConstraint(lockId));
  EXPECT_FALSE(loop->unpinConstraint(lockId));
  EXPECT_EQ(loop->snapshot().constraints.size(), 1u);
}

// docs/candidate-contract.md, "Several files": a header of the candidate's own travels with it to the
// evaluator and into the next prompt.
TEST(AgentLoop, AMultiFileReplyIsEvaluatedWithAllItsFiles) {
  const std::string multi = "```cpp add_custom_tiling.h\n#pragma once\nconstexpr int32_t TILE = 64;\n```\n" +
                            reply("verdict=wrong_answer");
  Fixture f("multifile", {multi, reply("verdict=pass us=40")}, maxIt(2));
  auto loop = f.loop();
  loop->start();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  const Session s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 2u);
  EXPECT_EQ(s.iterations[0].candidate.files.size(), 2u);
  ASSERT_EQ(f.evaluator->files.size(), 2u);
  EXPECT_EQ(f.evaluator->files[0], (std::vector<std::string>{"add_custom_tiling.h", "kernel.cpp"}));
  const std::string p2 =
      SessionStore::open(f.dir / "session", {OpenMode::ReadOnly}).readArtifact(2, "prompt.md");
  const auto kernelAt = p2.find("```cpp kernel.cpp");
  const auto headerAt = p2.find("```cpp add_custom_tiling.h\n#pragma once");
  ASSERT_NE(kernelAt, std::string::npos) << p2;
  ASSERT_NE(headerAt, std::string::npos) << p2;
  EXPECT_LT(kernelAt, headerAt);  // the primary file first
}

// Issue: with two full kernels in one reply the last was used silently. It still is (deterministic,
// documented), and the feedback says which.
TEST(AgentLoop, TwoKernelsInOneReplyAreReportedInTheFeedback) {
  const std::string two =
      "First:\n```cpp\n// FAKE verdict=wrong_answer\nextern \"C\" __global__ __aicore__ void "
      "add_custom(GM_ADDR x) "
      "{}\n```\nBetter:\n```cpp\n// FAKE verdict=pass us=40\nextern \"C\" __global__ __aicore__ void "
      "add_custom(GM_ADDR x) {}\n```\n";
  Fixture f("twokernels", {two}, maxIt(1));
  auto loop = f.loop();
  loop->start();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  const Session s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 1u);
  EXPECT_EQ(s.iterations[0].verdict, Verdict::Pass);  // the last one
  const auto& ds = s.iterations[0].diagnostics;
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].category, "ambiguous-reply");
  EXPECT_EQ(ds[0].severity, Severity::Warning);
  const std::string feedback =
      SessionStore::open(f.dir / "session", {OpenMode::ReadOnly}).readArtifact(1, "feedback.md");
  EXPECT_NE(feedback.find("the last one (code block 2) was used as kernel.cpp"), std::string::npos)
      << feedback;
}

}  // namespace
}  // namespace kwb
