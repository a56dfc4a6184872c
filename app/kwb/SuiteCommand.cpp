// SPDX-License-Identifier: MIT
// kwb suite eval DIR --reference: evaluates every task's expert candidate (or one named candidate file
// per task) and prints one progress line per task and a summary.
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/kwb/Cli.h"
#include "core/base/BoundedFileRead.h"
#include "core/base/PrivateCacheDir.h"
#include "core/base/TempWorkDir.h"
#include "core/eval/Evaluator.h"
#include "core/model/Task.h"

namespace kwb::cli {
namespace {

namespace fs = std::filesystem;

struct SuiteArgs {
  std::string dir;
  bool reference = false;
  std::string candidate = "expert_candidate.cpp";
  std::string backend = "ascend-sim";
  std::string soc;
  std::string seed;
  std::string only;
  bool keepWork = false;
  bool json = false;
};

int runSuite(const SuiteArgs& a) {
  std::error_code ec;
  if (!fs::is_directory(a.dir, ec)) {
    std::cerr << "kwb suite eval: " << a.dir << " is not a folder\n";
    return BadInput;
  }
  if (!a.reference) {
    std::cerr << "kwb suite eval: pass --reference to evaluate each task's " << a.candidate << "\n";
    return BadInput;
  }
  std::vector<fs::path> taskDirs;
  for (const auto& e : fs::directory_iterator(a.dir, ec))
    if (e.is_directory() && fs::exists(e.path() / "task.json", ec)) taskDirs.push_back(e.path());
  std::sort(taskDirs.begin(), taskDirs.end());
  if (!a.only.empty())
    taskDirs.erase(std::remove_if(taskDirs.begin(), taskDirs.end(),
                                  [&](const fs::path& p) {
                                    return p.filename().string().find(a.only) == std::string::npos;
                                  }),
                   taskDirs.end());
  if (taskDirs.empty()) {
    std::cerr << "kwb suite eval: no task folders (with task.json) in " << a.dir << "\n";
    return BadInput;
  }
  std::optional<std::uint64_t> seed;
  if (!a.seed.empty()) {
    try {
      seed = std::stoull(a.seed, nullptr, 0);
    } catch (const std::exception&) {
      std::cerr << "kwb suite eval: --seed must be an integer\n";
      return BadInput;
    }
  }
  const fs::path cache = defaultEvalCacheDir();
  const PrivateDirResult cacheCheck = preparePrivateDir(cache);
  if (!cacheCheck.ok) {
    std::cerr << "kwb suite eval: " << cacheCheck.error << "\n";
    return BadInput;
  }
  for (const auto& w : cacheCheck.warnings) std::cerr << "kwb suite eval: warning: " << w << "\n";
  std::string workError;
  TempWorkDir rootDir(makeTempWorkDir("kwb-suite-", workError), a.keepWork);
  if (rootDir.path().empty()) {
    std::cerr << "kwb suite eval: " << workError << "\n";
    return InternalError;
  }
  const fs::path& root = rootDir.path();
  nlohmann::json results = nlohmann::json::array();
  int passed = 0, failed = 0, errors = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < taskDirs.size(); ++i) {
    const auto& dir = taskDirs[i];
    const std::string label =
        "[" + std::to_string(i + 1) + "/" + std::to_string(taskDirs.size()) + "] " + dir.filename().string();
    nlohmann::json item{{"task", dir.filename().string()}};
    try {
      Task task = loadTaskDir(dir);
      std::string readError;
      auto source = readBoundedRegularFile(dir / a.candidate, kMaxSourceReadBytes, readError);
      if (!source) throw std::runtime_error(readError);
      BackendOptions bo;
      bo.soc = a.soc.empty() ? task.soc : a.soc;
      bo.cacheDir = cache;
      std::string error;
      auto backend = makeBackend(a.backend, bo, error);
      if (!backend) throw std::runtime_error(error);
      EvalRequest req;
      req.candidateSource = std::move(*source);
      req.candidateName = a.candidate;
      req.seed = seed;
      req.workDir = root / task.name;
      req.cacheDir = cache;
      // Each task's folder goes as soon as it is evaluated: a whole suite's cases add up to gigabytes.
      TempWorkDir taskWork(req.workDir, a.keepWork);
      const EvalReport r = evaluate(task, *backend, req);
      const bool ok = r.verdict == Verdict::Pass;
      (ok ? passed : failed)++;
      item["verdict"] = verdictName(r.verdict);
      item["summary"] = r.summary;
      item["seed"] = r.seed;
      item["duration_ms"] = r.durationMs;
      item["cached_build"] = r.compile && r.compile->cached;
      if (!a.json) {
        std::cout << label << ": " << verdictName(r.verdict) << " (" << static_cast<long>(r.durationMs)
                  << " ms" << (r.compile && r.compile->cached ? ", cached build" : "") << ")";
        if (!ok) std::cout << " - " << r.summary;
        std::cout << std::endl;
      }
    } catch (const std::exception& e) {
      ++errors;
      item["verdict"] = nullptr;
      item["error"] = e.what();
      if (!a.json) std::cout << label << ": ERROR - " << e.what() << std::endl;
    }
    results.push_back(item);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (a.json) {
    printJson({{"dir", a.dir},
               {"backend", a.backend},
               {"tasks", results.size()},
               {"passed", passed},
               {"failed", failed},
               {"errors", errors},
               {"seconds", secs},
               {"results", results},
               {"work_dir", a.keepWork ? nlohmann::json(root.string()) : nlohmann::json(nullptr)}});
  } else {
    std::cout << "summary: " << passed << "/" << taskDirs.size() << " passed, " << failed << " failed, "
              << errors << " errors in " << static_cast<long>(secs) << " s\n";
    if (a.keepWork) std::cout << "work folders kept in " << root.string() << "\n";
  }
  if (errors) return InternalError;
  return failed ? Failed : Success;
}

}  // namespace

void addSuiteCommand(CLI::App& app, Context& ctx) {
  auto* suite = app.add_subcommand("suite", "Suites of tasks: evaluate references, run the agent, report");
  suite->require_subcommand(1);
  auto* eval = suite->add_subcommand("eval", "Evaluate every task's candidate in DIR");
  auto a = std::make_shared<SuiteArgs>();
  eval->add_option("DIR", a->dir, "Folder of task folders (e.g. resources/tasks)")->required();
  eval->add_flag("--reference", a->reference, "Evaluate each task's expert (reference) candidate");
  eval->add_option("--candidate", a->candidate, "Candidate file name inside each task folder");
  eval->add_option("--backend", a->backend, "ascend-sim or ascend-cann")
      ->check(CLI::IsMember({"ascend-sim", "ascend-cann"}));
  eval->add_option("--soc", a->soc, "SoC name (default: each task's)");
  eval->add_option("--seed", a->seed, "Seed for every task (default: fresh per task)");
  eval->add_option("--only", a->only, "Only tasks whose folder name contains this text");
  eval->add_flag("--keep-work", a->keepWork,
                 "Keep the tasks' work folders (default: each is removed once its task is evaluated)");
  eval->add_flag("--json", a->json, "Print one JSON document");
  eval->callback([&ctx, a] { ctx.action = [a] { return runSuite(*a); }; });
  addSuiteRunCommands(*suite, ctx);
}

}  // namespace kwb::cli
