// SPDX-License-Identifier: MIT
// kwb suite run-sample DIR TASK K: runs one sample of the suite in DIR, as a job of the Slurm executor
// does (docs/suites.md, "Slurm"). The sample is the same resumable session the local executor keeps;
// its .done.json marker says it finished. As it ends, the exit status also goes to DIR/slurm/<task>.
// sample-<K>.status.json, so the submitting kwb can tell a job that was killed (no file, or 128 + N)
// from one that ended by a decision of its own: 0 finished, 1 stopped by a suite budget, 2 bad input,
// 3 a workbench failure, 4 the LLM endpoint failed, 128 + N stopped by signal N (scancel, preemption).
#include <iostream>
#include <mutex>

#include "app/kwb/Cli.h"
#include "app/kwb/LlmOptions.h"
#include "app/kwb/StopSignals.h"
#include "core/model/Task.h"
#include "core/suite/SlurmExecutor.h"
#include "core/suite/SuiteRunner.h"

namespace kwb::cli {
namespace {

namespace fs = std::filesystem;
using namespace kwb::suite;

struct RunSampleArgs {
  std::string dir;
  std::string task;
  int sample = 0;
  LlmOptions llm;
  std::string seed;
};

int runSample(const RunSampleArgs& a, StopSignals& signals, std::mutex& stopMutex, SuiteRunner*& running) {
  std::string llmError;
  const LlmEndpointConfig cfg = resolveLlmEndpoint(a.llm, llmError);
  if (!llmError.empty()) {
    std::cerr << "kwb suite run-sample: " << llmError << "\n";
    return BadInput;
  }
  SuitePlan plan;
  try {
    plan = readSuitePlan(a.dir);
  } catch (const std::exception& e) {
    std::cerr << "kwb suite run-sample: " << e.what() << "\n";
    return BadInput;
  }
  const bool known =
      std::any_of(plan.tasks.begin(), plan.tasks.end(), [&](const SuiteTask& t) { return t.name == a.task; });
  if (!known || a.sample > plan.samples) {
    std::cerr << "kwb suite run-sample: the suite in " << a.dir << " has no sample " << a.sample
              << " of task '" << a.task << "'\n";
    return BadInput;
  }
  SuiteRunOptions options;
  options.workers = 1;
  options.measureExpert = false;
  options.onlySample = std::make_pair(a.task, a.sample);
  if (!a.seed.empty()) {
    try {
      options.loop.seed = std::stoull(a.seed, nullptr, 0);
    } catch (const std::exception&) {
      std::cerr << "kwb suite run-sample: --seed must be a non-negative integer\n";
      return BadInput;
    }
  }
  options.makeLlm = [cfg] { return std::shared_ptr<LlmClient>(makeLlmClient(cfg)); };
  const std::string backend = plan.settings.backend;
  options.makeEvaluator = [backend](const Task& task) {
    return std::shared_ptr<CandidateEvaluator>(std::make_shared<BackendEvaluator>(backend, task.soc));
  };
  // The job's log: one JSON line per event.
  options.onEvent = [](const SuiteEvent& e) {
    nlohmann::json line = e.data;
    line["event"] = e.kind;
    std::cout << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
  };
  SuiteRunSummary summary;
  {
    SuiteRunner runner(a.dir, plan, std::move(options));
    {
      std::lock_guard lock(stopMutex);
      running = &runner;
      if (signals.received()) runner.stop();
    }
    summary = runner.run();
    std::lock_guard lock(stopMutex);
    running = nullptr;
  }
  for (const auto& e : summary.errors) std::cerr << "kwb suite run-sample: error: " << e << "\n";
  if (const int sig = signals.received()) return 128 + sig;
  for (const auto& e : summary.errors)
    if (e.find(kLlmFailurePrefix) != std::string::npos) return LlmFailure;
  if (summary.failed > 0) return InternalError;
  std::error_code ec;
  return fs::exists(sampleDoneFile(a.dir, a.task, a.sample), ec) ? Success : Failed;
}

int runSampleAndRecord(const RunSampleArgs& a) {
  std::mutex stopMutex;
  SuiteRunner* running = nullptr;
  StopSignals signals([&](int) {
    std::lock_guard lock(stopMutex);
    if (running) running->stop();
  });
  const int status = runSample(a, signals, stopMutex, running);
  try {
    writeJsonAtomic(slurmSampleStatusFile(a.dir, a.task, a.sample), {{"exit", status}});
  } catch (const std::exception& e) {
    std::cerr << "kwb suite run-sample: cannot write the status file: " << e.what() << "\n";
  }
  return status;
}

}  // namespace

void addSuiteRunSampleCommand(CLI::App& suite, Context& ctx) {
  auto* cmd = suite.add_subcommand("run-sample", "Run one sample of a suite (what a Slurm job runs)");
  auto a = std::make_shared<RunSampleArgs>();
  cmd->add_option("DIR", a->dir, "Suite folder (with suite.json)")->required();
  cmd->add_option("TASK", a->task, "Task name in the suite's plan")->required();
  cmd->add_option("K", a->sample, "Sample number, from 1")
      ->required()
      ->check(CLI::Range(1, kMaxSuiteSamples));
  addLlmOptions(*cmd, a->llm);
  cmd->add_option("--seed", a->seed, "Fixed verification seed");
  cmd->callback([&ctx, a] { ctx.action = [a] { return runSampleAndRecord(*a); }; });
}

}  // namespace kwb::cli
