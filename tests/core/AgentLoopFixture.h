// SPDX-License-Identifier: MIT
#pragma once
// What the agent-loop tests share: a scripted evaluator whose verdicts come from markers in the
// candidate, an observer that records events, and a session fixture over the built-in add_custom task
// with a replayed model, so every test is fast and deterministic.

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/agent/AgentLoop.h"
#include "core/agent/KnowledgePack.h"
#include "core/llm/ReplayClient.h"
#include "core/model/Task.h"
#include "core/store/SessionStore.h"

namespace kwb::agentloop_test {

namespace fs = std::filesystem;

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

inline std::string reply(const std::string& marker) {
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

inline SessionLimits maxIt(int n) {
  SessionLimits l;
  l.maxIterations = n;
  return l;
}

}  // namespace kwb::agentloop_test
