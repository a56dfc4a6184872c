// SPDX-License-Identifier: MIT
// The agent loop's control and steering (pause, step, hint, edit, pin, rollback, accept, resume,
// best-of-N) with a replayed model and a scripted evaluator, so every test is fast and deterministic.
// The real emulator is exercised by AgentEndToEndTest and LessonReplayTest.
#include <gtest/gtest.h>

#include <thread>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>

#include "core/agent/AgentLoop.h"
#include "core/agent/KnowledgePack.h"
#include "core/llm/ReplayClient.h"
#include "core/model/Task.h"
#include "core/store/SessionStore.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Verdicts come from a marker in the candidate: "// FAKE verdict=pass us=40" or
// "// FAKE verdict=compile_error line=7 category=compile-error". Records what it evaluated.
class ScriptedEvaluator : public CandidateEvaluator {
 public:
  EvaluationOutcome evaluate(const Task& t, const Candidate& c, const EvaluationContext& ctx) override {
    int now = 0;
    {
      std::lock_guard lock(mutex);
      now = ++active;
      maxActive = std::max(maxActive, now);
    }
    struct Leave {
      ScriptedEvaluator& e;
      ~Leave() {
        std::lock_guard lock(e.mutex);
        --e.active;
      }
    } leave{*this};
    return evaluateOnce(t, c, ctx);
  }

  // A candidate marked BLOCK waits in its evaluation (after the compile phase began) until release().
  void release() {
    std::lock_guard lock(mutex);
    released = true;
    cv.notify_all();
  }
  bool waitBlocked(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, timeout, [&] { return blocked; });
  }

  EvaluationOutcome evaluateOnce(const Task&, const Candidate& c, const EvaluationContext& ctx) {
    const std::string src = primaryCandidateFile(c).second;
    {
      std::lock_guard lock(mutex);
      evaluated.push_back(src);
      workDirs.push_back(ctx.workDir);
      std::vector<std::string> names;
      for (const auto& [name, text] : c.files) names.push_back(name);
      files.push_back(names);
    }
    // What a real evaluation leaves in its work folder: a case folder with the emulator's trace.
    const fs::path caseDir = ctx.workDir / "cases" / "c";
    fs::create_directories(caseDir);
    std::ofstream(caseDir / "trace.json") << "{\"traceEvents\": []}";
    if (ctx.onPhase) ctx.onPhase(EvalPhase::Compiling);
    if (src.find("BLOCK") != std::string::npos) {
      std::unique_lock lock(mutex);
      blocked = true;
      cv.notify_all();
      cv.wait(lock, [&] { return released; });
    }
    std::smatch m;
    EvaluationOutcome o;
    std::string verdict = "pass";
    if (std::regex_search(src, m, std::regex("verdict=([a-z_]+)"))) verdict = m[1];
    o.verdict = *parseVerdict(verdict);
    CompileResult cr;
    cr.ok = o.verdict != Verdict::CompileError;
    cr.durationMs = 5;
    if (!cr.ok) {
      Diagnostic d;
      d.source = "compiler";
      d.category = "compile-error";
      d.file = "kernel.cpp";
      if (std::regex_search(src, m, std::regex("line=([0-9]+)"))) d.line = std::stoi(m[1]);
      d.message = "use of undeclared identifier 'xLocall'";
      cr.diagnostics.push_back(d);
      o.compile = cr;
      return o;
    }
    o.compile = cr;
    if (ctx.onPhase) ctx.onPhase(EvalPhase::Running);
    RunResult rr;
    rr.status = o.verdict == Verdict::RuntimeError ? RunStatus::Error : RunStatus::Ok;
    if (std::regex_search(src, m, std::regex("category=([a-z-]+)"))) {
      Diagnostic d;
      d.source = "emulator";
      d.category = m[1];
      d.file = "kernel.cpp";
      d.line = std::regex_search(src, m, std::regex("line=([0-9]+)")) ? std::stoi(m[1]) : 1;
      d.message = "scripted finding";
      rr.diagnostics.push_back(d);
    }
    o.run = rr;
    if (std::regex_search(src, m, std::regex("us=([0-9.]+)"))) {
      ProfileReport p;
      p.totalUs = std::stod(m[1]);
      p.bound = "mte2";
      o.profile = p;
    }
    o.report = nlohmann::json{
        {"verdict", verdict},
        {"runs", nlohmann::json::array({{{"case", "c"}, {"block_dim", 8}, {"dir", caseDir.string()}}})}};
    o.profileArtifactsDir = caseDir;
    return o;
  }
  std::string backendName() const override { return "scripted"; }

  std::mutex mutex;
  std::condition_variable cv;
  std::vector<std::string> evaluated;
  std::vector<fs::path> workDirs;
  std::vector<std::vector<std::string>> files;  // each evaluated candidate's file names
  int active = 0;                               // evaluations in progress
  int maxActive = 0;                            // most at once (2 with N = 1: one was nested in another)
  bool blocked = false;
  bool released = false;
};

// Records every event; a state wait helper for tests.
class Recorder : public AgentObserver {
 public:
  void onAgentEvent(const AgentEvent& e) override {
    std::lock_guard lock(mutex);
    events.push_back(e);
  }
  template <class T>
  int count() {
    std::lock_guard lock(mutex);
    int n = 0;
    for (const auto& e : events) n += std::holds_alternative<T>(e) ? 1 : 0;
    return n;
  }
  std::mutex mutex;
  std::vector<AgentEvent> events;
};

std::string reply(const std::string& marker) {
  return "Here is the kernel.\n\n```cpp kernel.cpp\n#include \"kwb_tiling.h\"\n// FAKE " + marker +
         "\nconstexpr int32_t BUFFER_NUM = 2;\nextern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x) "
         "{}\n```\n";
}

struct Fixture {
  fs::path dir;
  Task task;
  std::shared_ptr<ScriptedEvaluator> evaluator = std::make_shared<ScriptedEvaluator>();
  std::shared_ptr<ReplayClient> llm;
  Recorder recorder;

  Fixture(const std::string& name, std::vector<std::string> replies, SessionLimits limits = {}) {
    dir = fs::temp_directory_path() / ("kwb-agentloop-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    task = loadTaskDir(workbenchDataRoot() / "resources" / "tasks" / "add_custom");
    std::vector<ReplayEntry> entries;
    for (auto& r : replies) {
      ReplayEntry e;
      e.text = r;
      entries.push_back(e);
    }
    llm = std::make_shared<ReplayClient>(std::move(entries));
    SessionSettings s;
    s.provider = "replay";
    s.limits = limits;
    SessionStore::create(
        dir / "session",
        makeSession(task, (workbenchDataRoot() / "resources" / "tasks" / "add_custom").string(), s),
        Durability::NoSync);
  }
  ~Fixture() { fs::remove_all(dir); }

  std::unique_ptr<AgentLoop> loop(AgentLoopOptions o = {}, bool defaultWorkRoot = false) {
    if (!defaultWorkRoot) o.workRoot = dir / "work";
    auto l = std::make_unique<AgentLoop>(
        SessionStore::open(dir / "session", {OpenMode::ReadWrite, false, Durability::NoSync}), llm, evaluator,
        o);
    l->addObserver(&recorder);
    return l;
  }
};

SessionLimits maxIt(int n) {
  SessionLimits l;
  l.maxIterations = n;
  return l;
}

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
