// SPDX-License-Identifier: MIT
// kwb suite run / report / compare (docs/suites.md): the agent over many tasks, K sessions each, kept
// under --out and resumable with --resume; its reports; two runs side by side. The logic is in
// core/suite; this file parses options, prints progress and maps the outcome to an exit code:
// 0 every planned sample finished, 1 some stopped or skipped by a suite budget, 2 bad input,
// 3 a sample failed in the workbench (damaged session, internal error), 4 the LLM endpoint failed,
// 128 + N stopped by signal N (resume with --resume).
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "app/kwb/Cli.h"
#include "app/kwb/LlmOptions.h"
#include "app/kwb/StopSignals.h"
#include "core/agent/AgentEvents.h"
#include "core/agent/FactoryBackendEvaluator.h"
#include "core/model/Task.h"
#include "core/remote/SshExecutorSetup.h"
#include "core/suite/SlurmExecutor.h"
#include "core/suite/SuiteCompare.h"
#include "core/suite/SuiteReport.h"
#include "core/suite/SuiteRunner.h"
#include "core/toolchain/TaskPreflight.h"

namespace kwb::cli {
namespace {

namespace fs = std::filesystem;
using namespace kwb::suite;
using remote::SshExecutorSetup;
using remote::SshOptions;

struct SuiteRunArgs {
  std::vector<std::string> tasks;
  std::string backend;  // empty: ascend-sim, or ascend-cann with --executor ssh://
  LlmOptions llm;
  int samples = 0;  // 0: not given (1, or the plan's on --resume)
  int maxIterations = 0;
  int candidates = 0;
  int patience = 0;
  double targetSpeedup = 0;
  int workers = 2;
  std::string out;
  std::string seed;
  bool resume = false;
  bool json = false;
  bool noExpert = false;
  bool noReport = false;
  SuiteBudgets budgets;
  std::string executor = "local";  // "local", "slurm" or "ssh://user@host[:port]"
  SshOptions ssh;
  std::string partition, timeLimit, account;
  int maxRetries = 2;
  double pollSeconds = 2;
};

// Task folders from the arguments: a folder with task.json is a task, any other folder contributes the
// task folders directly inside it (resources/tasks).
std::vector<SuiteTask> expandTasks(const std::vector<std::string>& args, std::string& error) {
  std::vector<SuiteTask> out;
  std::set<std::string> names;
  auto add = [&](const fs::path& dir) {
    Task task;
    try {
      task = loadTaskDir(dir);
    } catch (const std::exception& e) {
      error = e.what();
      return false;
    }
    if (!names.insert(task.name).second) {
      error = "two task folders define the task " + task.name + " (" + dir.string() + ")";
      return false;
    }
    out.push_back({task.name, fs::absolute(dir).lexically_normal()});
    return true;
  };
  for (const auto& a : args) {
    std::error_code ec;
    const fs::path dir(a);
    if (fs::exists(dir / "task.json", ec)) {
      if (!add(dir)) return {};
      continue;
    }
    if (!fs::is_directory(dir, ec)) {
      error = a + ": not a task folder (no task.json) nor a folder of task folders";
      return {};
    }
    std::vector<fs::path> inner;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.is_directory() && fs::exists(e.path() / "task.json", ec)) inner.push_back(e.path());
    std::sort(inner.begin(), inner.end());
    if (inner.empty()) {
      error = a + ": no task folders (with task.json) in it";
      return {};
    }
    for (const auto& p : inner)
      if (!add(p)) return {};
  }
  return out;
}

std::string clock(double seconds) {
  const long s = std::lround(seconds);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// One line per event: a JSON line on stdout with --json, else a progress line on stderr.
void printEvent(const SuiteEvent& e, bool json) {
  if (json) {
    nlohmann::json line = e.data;
    line["event"] = e.kind;
    std::cout << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return;
  }
  const auto& d = e.data;
  std::string progress =
      "[" + std::to_string(d.value("done", 0)) + "/" + std::to_string(d.value("total", 0)) + "]";
  if (d.contains("eta_s") && d["eta_s"].is_number()) progress += " ETA " + clock(d["eta_s"].get<double>());
  std::string what;
  const std::string sample = d.value("task", "") + " sample-" + std::to_string(d.value("sample", 0));
  if (e.kind == "suite_started") {
    what = "suite " + d.value("dir", "") + ": " + std::to_string(d.value("tasks", 0)) + " tasks x " +
           std::to_string(d.value("samples", 0)) + " samples on " + std::to_string(d.value("workers", 0)) +
           " workers, " + std::to_string(d.value("already_done", 0)) + " already done";
  } else if (e.kind == "expert_measured") {
    what = "expert " + d.value("task", "") + ": " +
           (d["us"].is_number() ? fixed2(d["us"].get<double>()) + " us" : d.value("summary", ""));
  } else if (e.kind == "sample_started") {
    what = sample + (d.value("resumed", false) ? " resumed" : " started");
  } else if (e.kind == "iteration_finished") {
    what = sample + " #" + std::to_string(d.value("iteration", 0)) + " " + d.value("headline", "");
  } else if (e.kind == "sample_finished") {
    what = sample + " " + d.value("status", "") + ": " + d.value("finish_reason", d.value("error", ""));
  } else if (e.kind == "sample_skipped") {
    what = sample + " skipped: " + d.value("reason", "");
  } else if (e.kind == "suite_finished") {
    what = d.value("stopped", false) ? "stopped" : "finished";
  }
  std::cerr << "kwb suite: " << progress << " " << what << std::endl;
}

int bad(const std::string& msg, bool json) {
  if (json)
    std::cout << nlohmann::json{{"event", "error"}, {"error", msg}}.dump() << std::endl;
  else
    std::cerr << "kwb suite: " << msg << "\n";
  return BadInput;
}

std::string defaultOutDir() {
  char stamp[32];
  std::time_t t = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&t));
  return std::string("suite-") + stamp;
}

// The command every element of a Slurm job array runs: this kwb, with the array's manifest (the element
// picks its sample by SLURM_ARRAY_TASK_ID) and the LLM endpoint given explicitly (the key stays in the
// environment variable it names, which sbatch passes on with the rest).
std::vector<std::string> runSampleCommand(const std::string& kwb, const fs::path& dir,
                                          const fs::path& manifest, const LlmEndpointConfig& cfg,
                                          std::optional<std::uint64_t> seed) {
  std::vector<std::string> argv{kwb, "suite", "run-sample", dir.string(), "--manifest", manifest.string()};
  auto add = [&](const char* option, const std::string& value) {
    if (value.empty()) return;
    argv.push_back(option);
    argv.push_back(value);
  };
  add("--provider", cfg.provider);
  if (cfg.provider == "replay") {
    add("--replay", fs::absolute(cfg.replayFile).string());
  } else {
    add("--base-url", cfg.baseUrl);
    add("--model", cfg.model);
    add("--api-key-env", cfg.apiKeyEnv);
  }
  if (seed) add("--seed", std::to_string(*seed));
  return argv;
}

int runSuiteAgent(SuiteRunArgs a) {
  std::mutex stopMutex;
  SuiteRunner* running = nullptr;
  SlurmExecutor* slurmRunning = nullptr;
  StopSignals signals([&](int) {
    std::lock_guard lock(stopMutex);
    if (running) running->stop();
    if (slurmRunning) slurmRunning->stop();
  });
  std::string llmError;
  const LlmEndpointConfig cfg = resolveLlmEndpoint(a.llm, llmError);
  for (const auto& w : cfg.warnings) std::cerr << "kwb suite: warning: " << w << "\n";
  if (!llmError.empty()) return bad(llmError, a.json);
  if (auto why = environmentProblemBeforeEvaluation(); !why.empty()) return bad(why, a.json);
  std::optional<std::uint64_t> seed;
  if (!a.seed.empty()) {
    try {
      seed = std::stoull(a.seed, nullptr, 0);
    } catch (const std::exception&) {
      return bad("--seed must be a non-negative integer", a.json);
    }
  }
  if (a.out.empty()) {
    if (a.resume) return bad("--resume needs --out DIR (the suite folder to continue)", a.json);
    a.out = defaultOutDir();
  }
  // --executor ssh://: the samples run here, every evaluation builds and runs on the remote host.
  std::unique_ptr<SshExecutorSetup> sshSetup;
  if (a.executor.rfind("ssh://", 0) == 0) {
    a.ssh.url = a.executor;
    std::string error;
    sshSetup = SshExecutorSetup::make(a.ssh, error);
    if (!sshSetup) return bad("--executor: " + error, a.json);
    if (a.backend.empty()) a.backend = "ascend-cann";
    if (a.backend != "ascend-cann")
      return bad(
          "--executor ssh:// runs the ascend-cann backend on the remote host; drop --backend " + a.backend,
          a.json);
  } else if (a.executor != "local" && a.executor != "slurm") {
    return bad("--executor must be local, slurm or ssh://user@host[:port] (got " + a.executor + ")", a.json);
  }
  if (a.backend.empty()) a.backend = "ascend-sim";
  const fs::path dir(a.out);
  std::error_code ec;
  const bool hasPlan = fs::exists(dir / kSuitePlanFile, ec);
  std::optional<SuitePlan> stored;
  if (a.resume) {
    if (!hasPlan) return bad(dir.string() + " holds no suite (no " + kSuitePlanFile + ") to resume", a.json);
    try {
      stored = readSuitePlan(dir);
    } catch (const std::exception& e) {
      return bad(e.what(), a.json);
    }
  } else if (hasPlan) {
    return bad(dir.string() + " already holds a suite; pass --resume to continue it, or another --out",
               a.json);
  } else if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    return bad(dir.string() + " exists and is not empty; a suite needs a new or empty folder", a.json);
  }
  SuitePlan plan;
  if (!a.tasks.empty() || !stored) {
    if (a.tasks.empty()) return bad("name the task folders (or a folder of them) to run", a.json);
    std::string error;
    plan.tasks = expandTasks(a.tasks, error);
    if (!error.empty()) return bad(error, a.json);
    for (const auto& t : plan.tasks) {
      const Task task = loadTaskDir(t.dir);
      if (auto why = taskProblemBeforeEvaluation(task); !why.empty())
        return bad(t.dir.string() + ": " + why, a.json);
    }
    plan.samples = a.samples > 0 ? a.samples : 1;
    plan.settings.backend = a.backend;
    plan.settings.provider = cfg.provider;
    plan.settings.model = cfg.model;
    plan.settings.baseUrl = redactUrl(cfg.baseUrl);
    if (a.maxIterations > 0) plan.settings.limits.maxIterations = a.maxIterations;
    plan.settings.limits.candidatesPerRound = std::max(1, a.candidates);
    if (a.patience > 0) plan.settings.limits.patience = a.patience;
    if (a.targetSpeedup > 0) plan.settings.limits.targetSpeedup = a.targetSpeedup;
    plan.budgets = a.budgets;
    if (stored && !(plan == *stored))
      return bad("the tasks and options differ from the suite's plan in " + (dir / kSuitePlanFile).string() +
                     "; resume with the same ones, or with --resume --out DIR alone to use the stored plan",
                 a.json);
  }
  if (stored) {
    plan = *stored;
  } else {
    plan.createdAt = "";
    try {
      fs::create_directories(dir);
      writeSuitePlan(dir, plan);
    } catch (const std::exception& e) {
      return bad("cannot write the suite plan in " + dir.string() + ": " + e.what(), a.json);
    }
  }
  if (a.executor == "slurm")
    for (const auto& [option, value] :
         {std::pair<std::string, const std::string&>{"--partition", a.partition},
          {"--time", a.timeLimit},
          {"--account", a.account}})
      if (auto why = slurmOptionProblem(option, value); !why.empty()) return bad(why, a.json);
  if (sshSetup) {
    if (plan.settings.backend != "ascend-cann")
      return bad("the suite in " + dir.string() + " uses the " + plan.settings.backend +
                     " backend; --executor ssh:// runs ascend-cann",
                 a.json);
    std::string error;
    if (!sshSetup->probe(error)) return bad("--executor " + a.executor + ": " + error, a.json);
    const auto& f = sshSetup->facts();
    if (!f.cann)
      return bad(
          "--executor " + a.executor +
              ": no CANN toolkit found there (ASCEND_TOOLKIT_HOME / ASCEND_HOME_PATH unset in its login "
              "environment, nothing under /usr/local/Ascend or ~/Ascend); install it or pass --remote-cann "
              "DIR (kwb doctor --host " +
              a.executor + ")",
          a.json);
    if (!a.json)
      std::cerr << "kwb suite: " << a.executor << ": CANN " << f.cannVersion.value_or("(version unknown)")
                << " at " << f.cann->root << ", "
                << (f.devices.empty() ? "no NPU device" : std::to_string(f.devices.size()) + " NPU device(s)")
                << (f.bubblewrap ? ", bubblewrap" : ", no bubblewrap (rlimits only)") << "\n";
  }
  SuiteRunOptions options;
  options.workers = a.workers;
  options.measureExpert = !a.noExpert;
  // With Slurm this process measures the experts (quick, once per task) and its jobs run the samples.
  const bool slurm = a.executor == "slurm";
  options.runSamples = !slurm;
  options.loop.seed = seed;
  options.makeLlm = [cfg] { return std::shared_ptr<LlmClient>(makeLlmClient(cfg)); };
  const std::string backend = plan.settings.backend;
  if (sshSetup)
    options.makeEvaluator = [backend, factory = sshSetup->backendFactory()](const Task& task) {
      return std::shared_ptr<CandidateEvaluator>(
          std::make_shared<FactoryBackendEvaluator>(backend, task.soc, factory));
    };
  else
    options.makeEvaluator = [backend](const Task& task) {
      return std::shared_ptr<CandidateEvaluator>(std::make_shared<BackendEvaluator>(backend, task.soc));
    };
  const bool json = a.json;
  options.onEvent = [json](const SuiteEvent& e) { printEvent(e, json); };
  const auto onEvent = options.onEvent;
  // With Slurm, the suite's start and end are the executor's; this runner only measures the experts.
  if (slurm)
    options.onEvent = [json](const SuiteEvent& e) {
      if (e.kind != "suite_started" && e.kind != "suite_finished") printEvent(e, json);
    };
  SuiteRunSummary summary;
  {
    SuiteRunner runner(dir, plan, std::move(options));
    {
      std::lock_guard lock(stopMutex);
      running = &runner;
      if (signals.received()) runner.stop();
    }
    summary = runner.run();
    std::lock_guard lock(stopMutex);
    running = nullptr;
  }
  if (slurm && !signals.received()) {
    SlurmExecutorOptions so;
    so.partition = a.partition;
    so.timeLimit = a.timeLimit;
    so.account = a.account;
    so.maxRetries = a.maxRetries;
    so.maxRunning = a.workers;
    so.pollInterval = std::chrono::milliseconds(std::lround(a.pollSeconds * 1000));
    if (!cfg.apiKeyEnv.empty()) so.passEnvironment.push_back(cfg.apiKeyEnv);
    so.onEvent = onEvent;
    const std::string self = fs::read_symlink("/proc/self/exe", ec).string();
    const fs::path absDir = fs::absolute(dir);
    so.jobCommand = [self, absDir, cfg, seed](const fs::path& manifest) {
      return runSampleCommand(self, absDir, manifest, cfg, seed);
    };
    try {
      SlurmExecutor executor(dir, plan, std::move(so));
      {
        std::lock_guard lock(stopMutex);
        slurmRunning = &executor;
        if (signals.received()) executor.stop();
      }
      const SuiteRunSummary expertSummary = summary;
      summary = executor.run();
      summary.errors.insert(summary.errors.begin(), expertSummary.errors.begin(), expertSummary.errors.end());
      std::lock_guard lock(stopMutex);
      slurmRunning = nullptr;
    } catch (const std::exception& e) {
      std::lock_guard lock(stopMutex);
      slurmRunning = nullptr;
      return bad(std::string("--executor slurm: ") + e.what(), a.json);
    }
  }
  std::vector<fs::path> reports;
  if (!a.noReport) {
    try {
      reports = writeSuiteReports(loadSuiteReport(dir));
    } catch (const std::exception& e) {
      summary.errors.push_back(std::string("report: ") + e.what());
    }
  }
  bool llmFailure = false;
  for (const auto& e : summary.errors)
    if (e.find(kLlmFailurePrefix) != std::string::npos) llmFailure = true;
  if (json) {
    nlohmann::json paths = nlohmann::json::array();
    for (const auto& p : reports) paths.push_back(fs::absolute(p).string());
    std::cout << nlohmann::json{{"event", "summary"},
                                {"dir", fs::absolute(dir).string()},
                                {"total", summary.total},
                                {"finished", summary.finished},
                                {"skipped", summary.skipped},
                                {"failed", summary.failed},
                                {"stopped", summary.stopped},
                                {"errors", summary.errors},
                                {"reports", paths}}
                     .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << std::endl;
  } else {
    for (const auto& e : summary.errors) std::cerr << "kwb suite: error: " << e << "\n";
    std::cout << "suite " << dir.string() << ": " << summary.finished << "/" << summary.total
              << " samples finished, " << summary.skipped << " skipped, " << summary.failed << " failed\n";
    for (const auto& p : reports) std::cout << "report: " << p.string() << "\n";
  }
  if (const int sig = signals.received()) {
    std::cerr << "kwb suite: stopped by signal " << sig << "; continue with: kwb suite run --resume --out "
              << dir.string() << (a.executor != "local" ? " --executor " + a.executor : std::string())
              << "\n";
    return 128 + sig;
  }
  if (llmFailure) return LlmFailure;
  if (summary.failed > 0) return InternalError;
  return summary.finished == summary.total ? Success : Failed;
}

int runSuiteReport(const std::string& dir, bool json) {
  SuiteReport report;
  std::vector<fs::path> files;
  try {
    report = loadSuiteReport(dir);
    files = writeSuiteReports(report);
  } catch (const std::exception& e) {
    return bad(e.what(), false);
  }
  if (json) {
    printJson(suiteReportJson(report));
  } else {
    std::cout << "times: " << report.timingSource << "\n";
    for (const auto& p : files) std::cout << "report: " << p.string() << "\n";
  }
  return Success;
}

// A suite folder or a report.json.
nlohmann::json reportDocument(const std::string& arg) {
  std::error_code ec;
  if (fs::is_directory(arg, ec)) return suiteReportJson(loadSuiteReport(arg));
  auto doc = suite::readJsonFile(fs::path(arg));
  if (!doc) throw std::runtime_error(arg + ": no such suite folder or report.json");
  return *doc;
}

int runSuiteCompare(const std::string& a, const std::string& b, bool json) {
  nlohmann::json comparison;
  try {
    comparison = compareSuiteReports(reportDocument(a), reportDocument(b), a, b);
  } catch (const std::exception& e) {
    return bad(e.what(), false);
  }
  if (json)
    printJson(comparison);
  else
    std::cout << renderSuiteComparison(comparison);
  return Success;
}

}  // namespace

void addSuiteRunCommands(CLI::App& suite, Context& ctx) {
  auto* run = suite.add_subcommand("run", "Run the agent on every task, K independent sessions each");
  auto a = std::make_shared<SuiteRunArgs>();
  run->add_option("TASKS", a->tasks, "Task folders, or folders of task folders (e.g. resources/tasks)");
  addLlmOptions(*run, a->llm);
  run->add_option("--backend", a->backend,
                  "ascend-sim (emulator, default) or ascend-cann (default with ssh://)")
      ->check(CLI::IsMember({"ascend-sim", "ascend-cann"}));
  run->add_option("--samples", a->samples, "Independent sessions per task (K)")
      ->check(CLI::Range(1, kMaxSuiteSamples));
  run->add_option("--max-iterations", a->maxIterations, "Iteration budget of each session")
      ->check(CLI::PositiveNumber);
  run->add_option("--candidates", a->candidates, "Candidates per round (best-of-N)")
      ->check(CLI::Range(1, 16));
  run->add_option("--patience", a->patience, "Stop a session after this many rounds without improvement");
  run->add_option("--target-speedup", a->targetSpeedup, "Stop optimising a session at this speedup");
  run->add_option("--workers", a->workers, "Sessions run at once")->check(CLI::Range(1, 64));
  run->add_option("--out", a->out, "Suite folder (default: suite-<time>)");
  run->add_flag("--resume", a->resume,
                "Continue the suite in --out: finished sessions are kept, half-done ones continue");
  run->add_option("--seed", a->seed, "Fixed verification seed (default: fresh per evaluation)");
  run->add_option("--task-max-tokens", a->budgets.taskTokens, "Token budget per task (all its samples)");
  run->add_option("--task-max-iterations", a->budgets.taskIterations,
                  "Iteration budget per task (all its samples)");
  run->add_option("--task-max-seconds", a->budgets.taskSeconds, "Time budget per task, this invocation");
  run->add_option("--max-tokens", a->budgets.totalTokens, "Token budget of the whole suite");
  run->add_option("--max-total-iterations", a->budgets.totalIterations,
                  "Iteration budget of the whole suite");
  run->add_option("--max-seconds", a->budgets.totalSeconds, "Time budget of this invocation");
  run->add_flag("--no-expert", a->noExpert, "Do not measure the expert candidates (no fast_p vs expert)");
  run->add_flag("--no-report", a->noReport, "Do not write report.json/.xml/.html at the end");
  run->add_flag("--json", a->json, "One JSON line per event on stdout");
  run->add_option(
      "--executor", a->executor,
      "Where the samples run: local (threads), slurm (one job array, --workers elements at once) or "
      "ssh://user@host[:port] "
      "(threads here, every build and run on that NPU host)");
  run->add_option("--ssh-config", a->ssh.configFile,
                  "ssh config file for ssh:// (default $KWB_SSH_CONFIG, else ~/.ssh/config)");
  run->add_option("--remote-dir", a->ssh.remoteDir,
                  "Remote folder of the workspaces (default ~/.cache/kwb-remote)");
  run->add_option("--remote-cann", a->ssh.remoteCann,
                  "The CANN toolkit on the remote host (default: as detectCann finds it)");
  run->add_flag(
      "--keep-remote", a->ssh.keepRemote,
      "Keep each evaluation's remote workspace (by default it is removed when the evaluation ends)");
  run->add_option("--partition", a->partition, "Slurm partition of the jobs (--executor slurm)");
  run->add_option("--time", a->timeLimit, "Slurm time limit of each array element, e.g. 30 or 1:00:00");
  run->add_option("--account", a->account, "Slurm account to charge");
  run->add_option("--max-retries", a->maxRetries,
                  "Resubmissions of a sample whose array element was killed or preempted (Slurm)")
      ->check(CLI::Range(0, 20));
  run->add_option("--poll-seconds", a->pollSeconds, "How often squeue is asked (Slurm)")
      ->check(CLI::Range(0.2, 600.0));
  run->callback([&ctx, a] { ctx.action = [a] { return runSuiteAgent(*a); }; });
  addSuiteRunSampleCommand(suite, ctx);

  auto* report =
      suite.add_subcommand("report", "Write report.json, report.xml (JUnit) and report.html of a suite");
  auto reportDir = std::make_shared<std::string>();
  auto reportJson = std::make_shared<bool>(false);
  report->add_option("DIR", *reportDir, "Suite folder")->required();
  report->add_flag("--json", *reportJson, "Print report.json");
  report->callback([&ctx, reportDir, reportJson] {
    ctx.action = [reportDir, reportJson] { return runSuiteReport(*reportDir, *reportJson); };
  });

  auto* compare = suite.add_subcommand("compare", "Two suite runs side by side (B - A)");
  auto ab = std::make_shared<std::pair<std::string, std::string>>();
  auto compareJson = std::make_shared<bool>(false);
  compare->add_option("A", ab->first, "Suite folder or report.json")->required();
  compare->add_option("B", ab->second, "Suite folder or report.json")->required();
  compare->add_flag("--json", *compareJson, "Print the comparison as JSON");
  compare->callback([&ctx, ab, compareJson] {
    ctx.action = [ab, compareJson] { return runSuiteCompare(ab->first, ab->second, *compareJson); };
  });
}

}  // namespace kwb::cli
