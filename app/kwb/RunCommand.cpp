// SPDX-License-Identifier: MIT
// kwb run: the agent loop, headless. One progress line per step on stderr; --json prints the final
// session summary on stdout. Exit: 0 a passing candidate exists, 1 none, 2 bad input (including a
// damaged session resumed without --repair), 3 internal error, 4 the LLM endpoint failed (provider, key
// or network; retries exhausted), 128 + N when stopped by signal N (SIGINT, SIGTERM, SIGHUP: the run
// stops cleanly, its scratch is removed and the session can be resumed).
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <mutex>

#include "app/kwb/Cli.h"
#include "app/kwb/LlmOptions.h"
#include "app/kwb/StopSignals.h"
#include "core/agent/AgentLoop.h"
#include "core/agent/ImportedTask.h"
#include "core/agent/SessionSummary.h"
#include "core/llm/LlmClient.h"
#include "core/model/Task.h"
#include "core/toolchain/TaskPreflight.h"

namespace kwb::cli {
namespace {

namespace fs = std::filesystem;

struct RunArgs {
  std::string task;
  std::string backend = "ascend-sim";
  LlmOptions llm;
  int maxIterations = 0;
  int candidates = 1;
  double targetSpeedup = 0;
  int patience = 0;
  std::string session;
  std::string exportDir;
  std::string seed;
  bool json = false;
  bool repair = false;
};

// Prints one line per step; runs on the loop's threads, so it only formats and writes.
class ProgressPrinter : public AgentObserver {
 public:
  void onAgentEvent(const AgentEvent& e) override {
    std::string line;
    if (auto* s = std::get_if<agent_event::StateChanged>(&e)) {
      if (s->state == AgentState::Generating || s->state == AgentState::Compiling ||
          s->state == AgentState::Running || s->state == AgentState::Verifying ||
          s->state == AgentState::Profiling || s->state == AgentState::Paused ||
          s->state == AgentState::Finished || s->state == AgentState::Stopped) {
        line = std::string(agentStateName(s->state));
        if (s->iterationId) line = "#" + std::to_string(*s->iterationId) + " " + line;
        if (!s->detail.empty()) line += " (" + s->detail + ")";
      }
    } else if (auto* f = std::get_if<agent_event::IterationFinished>(&e)) {
      line = "#" + std::to_string(f->iteration.id) + " " + iterationHeadline(f->iteration);
    } else if (auto* a = std::get_if<agent_event::Accepted>(&e)) {
      line = "#" + std::to_string(a->iterationId) + " accepted, exported to " + a->exportDir;
    } else if (auto* err = std::get_if<agent_event::Error>(&e)) {
      line = "error: " + err->message;
    } else if (auto* r = std::get_if<agent_event::LlmRetry>(&e)) {
      char wait[32];
      std::snprintf(wait, sizeof wait, "%.1f s", static_cast<double>(r->waitMs) / 1000.0);
      line = "#" + std::to_string(r->iterationId) + " LLM retry " + std::to_string(r->attempt) + " in " +
             wait + " after " + r->reason;
    } else if (auto* rs = std::get_if<agent_event::StreamRestarted>(&e)) {
      line = "#" + std::to_string(rs->iterationId) + " the reply restarts (partial text discarded)";
    }
    if (line.empty()) return;
    std::lock_guard lock(mutex_);
    std::cerr << "kwb run: " << line << "\n";
  }

 private:
  std::mutex mutex_;
};

std::string defaultSessionDir(const std::string& taskName) {
  char stamp[32];
  std::time_t t = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&t));
  return (fs::path("sessions") / (taskName + "-" + stamp)).string();
}

int runAgent(const RunArgs& a) {
  // First, before any thread exists: every thread kwb starts inherits the blocked signals.
  std::mutex stopMutex;
  AgentLoop* running = nullptr;
  StopSignals signals([&](int) {
    std::lock_guard lock(stopMutex);
    if (running) running->stop();
  });
  auto bad = [&](const std::string& msg) {
    if (a.json)
      printJson({{"error", msg}});
    else
      std::cerr << "kwb run: " << msg << "\n";
    return BadInput;
  };
  Task task;
  try {
    task = loadTaskDir(a.task);
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  // Problems that would fail every iteration are found before a single LLM token is spent.
  if (auto why = taskProblemBeforeEvaluation(task); !why.empty()) return bad(why);
  if (auto why = environmentProblemBeforeEvaluation(); !why.empty()) return bad(why);
  // Before any thread starts: it sets KWB_LLM_API_KEY_ENV, so child processes never inherit the key.
  std::string llmError;
  LlmEndpointConfig cfg = resolveLlmEndpoint(a.llm, llmError);
  for (const auto& w : cfg.warnings) std::cerr << "kwb run: warning: " << w << "\n";
  if (!llmError.empty()) return bad(llmError);
  std::shared_ptr<LlmClient> llm;
  try {
    llm = makeLlmClient(cfg);
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  std::shared_ptr<CandidateEvaluator> evaluator;
  try {
    evaluator = std::make_shared<BackendEvaluator>(a.backend, task.soc);
  } catch (const std::exception& e) {
    return bad(e.what());
  }

  const fs::path sessionDir =
      a.session.empty() ? fs::path(defaultSessionDir(task.name)) : fs::path(a.session);
  std::error_code ec;
  const bool resume = fs::exists(sessionDir / SessionStore::kIndexFile, ec);
  std::optional<SessionStore> store;
  try {
    if (resume) {
      store.emplace(SessionStore::open(sessionDir));
      // Resuming writes session.json: never over damage nobody has seen (docs/reliability.md).
      if (store->damaged()) {
        std::string list;
        for (const auto& p : store->problems())
          if (p.severity == StoreProblem::Severity::Error) list += "\n  " + p.describe();
        if (!a.repair)
          return bad("session " + sessionDir.string() + " is damaged; nothing was changed:" + list +
                     "\nrerun with --repair to move the damaged parts into " +
                     (sessionDir / "damaged-<time>").string() + "/ (nothing is deleted) and resume");
        const fs::path aside = store->moveDamagedAside();
        std::cerr << "kwb run: repaired session " << sessionDir.string() << ": moved the damaged parts into "
                  << aside.string() << ":" << list << "\n";
      }
    } else {
      if (SessionStore::isUnfinishedSession(sessionDir))
        std::cerr << "kwb run: " << sessionDir.string()
                  << " holds only the partial files of a run stopped before it wrote session.json; "
                     "starting the session there\n";
      SessionSettings settings;
      settings.backend = a.backend;
      settings.provider = cfg.provider;
      settings.model = cfg.model;
      settings.baseUrl = redactUrl(cfg.baseUrl);
      store.emplace(
          SessionStore::create(sessionDir, makeSession(task, fs::absolute(a.task).string(), settings)));
    }
    SessionSettings settings = store->session().settings;
    if (a.maxIterations > 0) settings.limits.maxIterations = a.maxIterations;
    settings.limits.candidatesPerRound = std::max(1, a.candidates);
    if (a.targetSpeedup > 0) settings.limits.targetSpeedup = a.targetSpeedup;
    if (a.patience > 0) settings.limits.patience = a.patience;
    store->setSettings(settings);
  } catch (const std::exception& e) {
    return bad("session " + sessionDir.string() + ": " + e.what());
  }
  std::cerr << "kwb run: " << (resume ? "resuming" : "new") << " session " << sessionDir.string() << " ("
            << llm->describe() << ", backend " << a.backend << ")\n";
  if (auto pid = store->staleLockPid())
    std::cerr << "kwb run: warning: took over the lock of " << sessionDir.string() << " from process " << *pid
              << ", which ended without releasing it (crashed or killed); its unfinished iteration is "
                 "re-evaluated or marked stopped\n";

  AgentLoopOptions options;
  if (!a.seed.empty()) {
    try {
      options.seed = std::stoull(a.seed, nullptr, 0);
    } catch (const std::exception&) {
      return bad("--seed must be a non-negative integer");
    }
  }
  // A task written by `kwb task import` starts from the project's own kernel (iteration 1, origin
  // imported); a resumed session already has it.
  std::optional<Candidate> imported;
  if (!resume) {
    try {
      imported = loadImportedCandidate(a.task);
    } catch (const std::exception& e) {
      return bad(std::string("the task's imported candidate: ") + e.what());
    }
  }
  ProgressPrinter printer;
  AgentLoop loop(std::move(*store), llm, evaluator, options);
  loop.addObserver(&printer);
  if (imported) {
    std::cerr << "kwb run: iteration 1 is the imported operator project's kernel (" << imported->files.size()
              << " files)\n";
    loop.submitEdit(std::move(*imported), std::nullopt);
  }
  {
    std::lock_guard lock(stopMutex);
    running = &loop;
    if (signals.received()) loop.stop();
  }
  loop.start();
  loop.waitUntilDone();
  {
    std::lock_guard lock(stopMutex);
    running = nullptr;
  }
  const std::string reason = loop.finishReason();
  std::optional<std::string> exported;
  const auto best = loop.bestIteration();
  if (best && !a.exportDir.empty()) {
    try {
      exported = loop.accept(*best, a.exportDir).string();
    } catch (const std::exception& e) {
      std::cerr << "kwb run: export failed: " << e.what() << "\n";
    }
  }
  loop.removeObserver(&printer);
  const Session s = loop.snapshot();
  const bool llmFailure = !best && reason.rfind(kLlmFailurePrefix, 0) == 0;
  const bool internal =
      !best && (reason.rfind("internal error", 0) == 0 || reason.rfind("the workbench could not", 0) == 0);
  if (llmFailure)
    std::cerr
        << "kwb run: the LLM endpoint failed; fix it (see the message above), then resume with: kwb run "
           "--task "
        << a.task << " --session " << sessionDir.string() << "\n";
  if (a.json) {
    nlohmann::json j = sessionSummaryJson(s);
    j["session_dir"] = fs::absolute(sessionDir).string();
    j["finish_reason"] = reason;
    j["exported"] = exported ? nlohmann::json(*exported) : nlohmann::json(nullptr);
    printJson(j);
  } else {
    std::cout << renderIterationTree(s);
    std::cout << "finished: " << reason << "\n";
    if (best) std::cout << "best: iteration " << *best << "\n";
    if (exported) std::cout << "exported: " << *exported << "\n";
  }
  if (const int sig = signals.received()) {
    std::cerr << "kwb run: stopped by signal " << sig << "; resume with --session " << sessionDir.string()
              << "\n";
    return 128 + sig;
  }
  if (best) return Success;
  if (llmFailure) return LlmFailure;
  return internal ? InternalError : Failed;
}

}  // namespace

void addRunCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand(
      "run", "Run the agent loop headless: generate, evaluate and repair/optimise a kernel");
  auto a = std::make_shared<RunArgs>();
  cmd->add_option("--task", a->task, "Task folder (task.json, reference.cpp, README.md)")->required();
  cmd->add_option("--backend", a->backend, "ascend-sim (emulator) or ascend-cann")
      ->check(CLI::IsMember({"ascend-sim", "ascend-cann"}));
  addLlmOptions(*cmd, a->llm);
  cmd->add_option("--max-iterations", a->maxIterations, "Iteration budget of the session")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--candidates", a->candidates, "Candidates per round (best-of-N)")
      ->check(CLI::Range(1, 16));
  cmd->add_option("--target-speedup", a->targetSpeedup, "Stop optimising at this speedup over the baseline");
  cmd->add_option("--patience", a->patience, "Stop after this many rounds without improvement");
  cmd->add_option("--session", a->session, "Session folder (created, or resumed when it holds a session)");
  cmd->add_option("--export", a->exportDir,
                  "Accept the best passing iteration and export a CANN project here");
  cmd->add_option("--seed", a->seed, "Fixed verification seed (default: fresh per evaluation)");
  cmd->add_flag("--json", a->json, "Print the final session summary as JSON");
  cmd->add_flag("--repair", a->repair,
                "Resume a damaged session: move its unreadable iterations into SESSION/damaged-<time>/ "
                "(nothing is deleted) first; without it a damaged session is refused with exit 2");
  cmd->callback([&ctx, a] { ctx.action = [a] { return runAgent(*a); }; });
}

}  // namespace kwb::cli
