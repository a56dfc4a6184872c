// SPDX-License-Identifier: MIT
// kwb suite run-sample DIR TASK K: runs one sample of the suite in DIR, as an element of the Slurm
// executor's job array does (docs/suites.md, "Slurm"): there as `run-sample DIR --manifest FILE`, the
// sample being entry SLURM_ARRAY_TASK_ID (or --index) of the array's manifest (SlurmArrayManifest.h). The
// sample is the same resumable session the local executor keeps; its .done.json marker says it finished. As
// it ends, the exit status also goes to DIR/slurm/<task>. sample-<K>.status.json, so the submitting kwb can
// tell a job that was killed (no file, or 128 + N) from one that ended by a decision of its own: 0 finished,
// 1 stopped by a suite budget, 2 bad input, 3 a workbench failure, 4 the LLM endpoint failed, 128 + N stopped
// by signal N (scancel, preemption).
#include <cstdlib>
#include <iostream>
#include <mutex>

#include "app/kwb/Cli.h"
#include "app/kwb/LlmOptions.h"
#include "app/kwb/StopSignals.h"
#include "core/model/Task.h"
#include "core/suite/SlurmArrayManifest.h"
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
  std::string manifest;  // with arrayIndex: the task and sample come from this file
  std::string arrayIndex;
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

// Fills a.task and a.sample from the manifest's entry for this array element; "" or why it cannot.
std::string pickFromManifest(RunSampleArgs& a) {
  std::string index = a.arrayIndex;
  if (index.empty())
    if (const char* fromSlurm = std::getenv("SLURM_ARRAY_TASK_ID")) index = fromSlurm;
  if (index.empty()) return "--manifest needs --index or SLURM_ARRAY_TASK_ID (set in a job array's elements)";
  if (index.size() > 6 || index.find_first_not_of("0123456789") != std::string::npos)
    return "the array index '" + index.substr(0, 20) + "' is not a number";
  try {
    const auto doc = kwb::suite::readJsonFile(a.manifest);
    if (!doc) return "no manifest at " + a.manifest;
    const auto elements = slurmArrayManifestFromJson(*doc, a.manifest);
    const auto i = static_cast<std::size_t>(std::stoul(index));
    if (i >= elements.size())
      return a.manifest + " has " + std::to_string(elements.size()) + " elements, none at index " + index;
    a.task = elements[i].task;
    a.sample = elements[i].sample;
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

int runSampleAndRecord(RunSampleArgs a) {
  if (!a.manifest.empty() && (!a.task.empty() || a.sample != 0)) {
    std::cerr << "kwb suite run-sample: give TASK K or --manifest, not both\n";
    return BadInput;
  }
  if (a.manifest.empty() && (a.task.empty() || a.sample == 0)) {
    std::cerr << "kwb suite run-sample: give TASK K, or --manifest FILE\n";
    return BadInput;
  }
  if (!a.manifest.empty()) {
    // No status file here: without a sample there is nowhere to write one, and the executor takes the
    // missing file for a killed element (retried, at most --max-retries times).
    if (auto why = pickFromManifest(a); !why.empty()) {
      std::cerr << "kwb suite run-sample: " << why << "\n";
      return BadInput;
    }
  }
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
  cmd->add_option("TASK", a->task, "Task name in the suite's plan (or --manifest)");
  cmd->add_option("K", a->sample, "Sample number, from 1")->check(CLI::Range(1, kMaxSuiteSamples));
  cmd->add_option("--manifest", a->manifest,
                  "A Slurm job array's manifest (DIR/slurm/array-<n>.json): run its entry --index");
  cmd->add_option("--index", a->arrayIndex, "Entry of --manifest (default: $SLURM_ARRAY_TASK_ID)");
  addLlmOptions(*cmd, a->llm);
  cmd->add_option("--seed", a->seed, "Fixed verification seed");
  cmd->callback([&ctx, a] { ctx.action = [a] { return runSampleAndRecord(*a); }; });
}

}  // namespace kwb::cli
