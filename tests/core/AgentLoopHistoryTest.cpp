// SPDX-License-Identifier: MIT
// The agent loop's history: rollback to a new branch, accept and export, resume after a kill,
// best-of-N and an imported first iteration, with a replayed model and a scripted evaluator
// (tests/core/AgentLoopFixture.h).
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

TEST(AgentLoop, RollbackStartsANewBranchAndKeepsTheOldOne) {
  Fixture f("rollback",
            {reply("verdict=pass us=40"), reply("verdict=pass us=30"), reply("verdict=pass us=20"),
             reply("verdict=pass us=35")},
            maxIt(3));
  {
    // A chain 1 -> 2 -> 3, each faster than its parent.
    auto loop = f.loop();
    loop->start();
    ASSERT_TRUE(loop->waitUntilDone(60s));
    const Session s = loop->snapshot();
    ASSERT_EQ(s.iterations.size(), 3u);
    EXPECT_EQ(s.iterations[2].parentId, 2);
    EXPECT_THROW(loop->rollbackTo(99), std::invalid_argument);
  }
  {
    auto store = SessionStore::open(f.dir / "session", {OpenMode::ReadWrite, false, Durability::NoSync});
    SessionSettings settings = store.session().settings;
    settings.limits.maxIterations = 4;
    store.setSettings(settings);
  }
  auto loop = f.loop();
  loop->rollbackTo(1);
  loop->start();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  const Session s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 4u);
  EXPECT_EQ(s.iterations[3].parentId, 1);  // the new branch
  EXPECT_EQ(s.childrenOf(1).size(), 2u);   // both branches kept
  EXPECT_EQ(s.iterations[2].parentId, 2);
  auto store = SessionStore::open(f.dir / "session", {OpenMode::ReadOnly});
  // The new branch's prompt optimises iteration 1's candidate (40 us), not the 20 us one.
  EXPECT_NE(store.readArtifact(4, "prompt.md").find("## Current best candidate (kernel.cpp, iteration 1)"),
            std::string::npos);
}

TEST(AgentLoop, StepAfterFinishingRunsOneMoreRoundOnTheRolledBackBranch) {
  // The GUI keeps a finished loop alive; Roll back + Step must start a new branch even though the
  // iteration budget is already spent, then pause; Start must likewise run again.
  Fixture f("step-after-finish",
            {reply("verdict=pass us=40"), reply("verdict=pass us=30"), reply("verdict=pass us=35"),
             reply("verdict=pass us=25")},
            maxIt(2));
  AgentLoopOptions o;
  o.exitWhenFinished = false;
  auto loop = f.loop(o);
  loop->start();
  ASSERT_TRUE(loop->waitForState(AgentState::Finished, 60s));
  ASSERT_EQ(loop->snapshot().iterations.size(), 2u);
  loop->rollbackTo(1);
  loop->step();
  ASSERT_TRUE(loop->waitForState(AgentState::Paused, 60s));
  Session s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 3u);
  EXPECT_EQ(s.iterations[2].parentId, 1);
  EXPECT_EQ(s.childrenOf(1).size(), 2u);
  loop->resume();  // finishes the round, then the budget stops it again
  ASSERT_TRUE(loop->waitForState(AgentState::Finished, 60s));
  s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 3u);
  EXPECT_EQ(s.iterations[2].verdict, Verdict::Pass);
  loop->start();  // Start after finishing: one more round
  for (int i = 0; i < 600 && loop->snapshot().iterations.size() < 4u; ++i) std::this_thread::sleep_for(100ms);
  ASSERT_TRUE(loop->waitForState(AgentState::Finished, 60s));
  EXPECT_EQ(loop->snapshot().iterations.size(), 4u);
  loop->stop();
  EXPECT_TRUE(loop->waitUntilDone(60s));
}

TEST(AgentLoop, AcceptExportsACannKernelLaunchProject) {
  Fixture f("accept", {reply("verdict=compile_error line=2"), reply("verdict=pass us=40")}, maxIt(2));
  auto loop = f.loop();
  loop->start();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  EXPECT_THROW(loop->accept(1, f.dir / "export-bad"), std::invalid_argument);  // did not pass
  const fs::path out = loop->accept(2, f.dir / "export");
  EXPECT_EQ(loop->snapshot().acceptedIteration, 2);
  EXPECT_EQ(f.recorder.count<agent_event::Accepted>(), 1);
  for (const char* file :
       {"CMakeLists.txt", "add_custom.cpp", "tiling_host.cpp", "main.cpp", "kwb_tiling.h", "data_utils.h",
        "run.sh", "cmake/cpu_lib.cmake", "scripts/gen_data.py", "scripts/verify_result.py",
        "reference/reference.cpp", "reference/kwb_reference.h", "README.md"})
    EXPECT_TRUE(fs::exists(out / file)) << file;
  std::ifstream cm(out / "CMakeLists.txt");
  std::stringstream ss;
  ss << cm.rdbuf();
  EXPECT_NE(ss.str().find("ascendc_library(ascendc_kernels_${RUN_MODE} SHARED ${KERNEL_FILES})"),
            std::string::npos);
  EXPECT_NE(ss.str().find("RUN_MODE"), std::string::npos);
  std::ifstream kf(out / "add_custom.cpp");
  std::stringstream ks;
  ks << kf.rdbuf();
  EXPECT_EQ(ks.str(), loop->snapshot().iterations[1].candidate.files.at("kernel.cpp"));  // byte for byte
  std::ifstream rs(out / "run.sh");
  std::stringstream rss;
  rss << rs.rdbuf();
  EXPECT_NE(rss.str().find("-r | --run-mode"), std::string::npos);
  EXPECT_NE(rss.str().find("-v | --soc-version"), std::string::npos);
  EXPECT_THROW(loop->accept(2, f.dir / "export"), std::invalid_argument);  // not empty
}

TEST(AgentLoop, KilledSessionResumesFromDisk) {
  // A budget of 2: iteration 1 (redone) and the new iteration 3 use it; the interrupted iteration 2
  // does not (issue 16, item 7: interrupted iterations do not count towards --max-iterations).
  Fixture f("resume", {reply("verdict=pass us=40")}, maxIt(2));
  {
    // A process that died after generating iteration 1 (candidate saved, state compiling) and while
    // generating iteration 2 (no candidate yet).
    auto store = SessionStore::open(f.dir / "session", {OpenMode::ReadWrite, false, Durability::NoSync});
    Iteration one;
    one.id = 1;
    one.state = IterationState::Compiling;
    one.candidate.files["kernel.cpp"] = "// FAKE verdict=wrong_answer category=wrong-answer line=1\n";
    one.createdAt = "2026-01-01T00:00:00Z";
    store.saveIteration(one);
    Iteration two;
    two.id = 2;
    two.parentId = 1;
    two.state = IterationState::Generating;
    two.createdAt = "2026-01-01T00:00:01Z";
    store.saveIteration(two);
  }
  auto loop = f.loop();
  EXPECT_EQ(loop->snapshot().iterations[1].state, IterationState::Stopped);
  loop->start();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  const Session s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 3u);
  EXPECT_EQ(s.iterations[0].verdict, Verdict::WrongAnswer);  // the interrupted step was redone
  EXPECT_EQ(s.iterations[2].parentId, 1);                    // and the loop continued from it
  EXPECT_EQ(s.iterations[2].verdict, Verdict::Pass);
  EXPECT_NE(loop->finishReason().find("iteration budget (2)"), std::string::npos) << loop->finishReason();
}

TEST(AgentLoop, BestOfNEvaluatesEveryCandidateAndKeepsTheFastest) {
  SessionLimits l = maxIt(4);
  l.candidatesPerRound = 2;
  Fixture f("bestofn",
            {reply("verdict=pass us=40"), reply("verdict=pass us=60"), reply("verdict=pass us=50"),
             reply("verdict=pass us=10")},
            l);
  auto loop = f.loop();
  loop->start();
  ASSERT_TRUE(loop->waitUntilDone(60s));
  const Session s = loop->snapshot();
  ASSERT_EQ(s.iterations.size(), 4u);
  EXPECT_EQ(f.evaluator->evaluated.size(), 4u);
  // Round 2 builds on the faster candidate of round 1 (40 us, whichever id it got).
  const Iteration& r2a = s.iterations[2];
  ASSERT_TRUE(r2a.parentId);
  EXPECT_EQ(s.findIteration(*r2a.parentId)->profile->totalUs, 40.0);
  EXPECT_EQ(s.findIteration(*loop->bestIteration())->profile->totalUs, 10.0);
}

// kwb task import's candidate (origin imported) submitted before the loop starts is iteration 1 and
// keeps its origin; the agent then works from it (docs/task-format.md, "Importing an operator project").
TEST(AgentLoop, AnImportedCandidateIsIterationOneWithOriginImported) {
  Fixture f("imported", {reply("verdict=pass us=20")}, maxIt(2));
  auto loop = f.loop();
  Candidate imported;
  imported.origin = Origin::Imported;
  imported.files["kernel.cpp"] = "// FAKE verdict=pass us=50\n// the project's kernel\n";
  loop->submitEdit(imported, std::nullopt);
  for (int k = 0; k < 500; ++k) {
    const Session s = loop->snapshot();
    if (!s.iterations.empty() && s.iterations[0].state == IterationState::Done) break;
    std::this_thread::sleep_for(20ms);
  }
  const Session s = loop->snapshot();
  ASSERT_FALSE(s.iterations.empty());
  EXPECT_EQ(s.iterations[0].id, 1);
  EXPECT_EQ(s.iterations[0].origin, Origin::Imported);
  EXPECT_EQ(s.iterations[0].candidate.origin, Origin::Imported);
  EXPECT_EQ(s.iterations[0].verdict, Verdict::Pass);
  loop->stop();
  EXPECT_TRUE(loop->waitUntilDone(30s));
}

}  // namespace
}  // namespace kwb
