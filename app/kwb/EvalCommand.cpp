// SPDX-License-Identifier: MIT
// kwb eval: evaluate one candidate kernel for one task on a backend (docs/candidate-contract.md).
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "app/kwb/Cli.h"
#include "core/base/BoundedFileRead.h"
#include "core/base/PrivateCacheDir.h"
#include "core/base/TempWorkDir.h"
#include "core/eval/Evaluator.h"
#include "core/model/JsonReader.h"
#include "core/model/PhaseTimings.h"
#include "core/model/Task.h"
#include "core/toolchain/TaskPreflight.h"

namespace kwb::cli {
namespace {

namespace fs = std::filesystem;

struct EvalArgs {
  std::string task;
  std::string kernel;
  std::vector<std::string> files;  // the candidate's other files (headers; the op_host source)
  std::string backend = "ascend-sim";
  std::string soc;
  std::string seed;
  std::string workDir;
  bool keepWork = false;
  bool json = false;
  bool timings = false;
  int caseWorkers = 0;
};

bool isUnder(const std::string& path, const fs::path& dir) {
  const std::string d = dir.string();
  return path == d || (path.size() > d.size() && path.compare(0, d.size(), d) == 0 && path[d.size()] == '/');
}

// The work folder is gone: the report must not send anyone to files that no longer exist.
void forgetRemovedPaths(EvalReport& r, const fs::path& workDir) {
  for (auto it = r.artifacts.begin(); it != r.artifacts.end();)
    it = isUnder(it->second, workDir) ? r.artifacts.erase(it) : std::next(it);
  for (auto& run : r.runs)
    if (isUnder(run.dir, workDir)) run.dir.clear();
}

void printText(const EvalReport& r) {
  std::cout << "verdict: " << verdictName(r.verdict) << "  (backend " << r.backend << ", ran on "
            << ranOnName(r.ranOn) << ", seed " << r.seed << ")\n";
  std::cout << r.summary << "\n";
  for (const auto& d : r.diagnostics) {
    std::cout << "  " << d.format() << "\n";
    for (const auto& rel : d.related) std::cout << "      related: " << rel.format() << "\n";
    for (const auto& n : d.notes) std::cout << "      note: " << n << "\n";
  }
  for (const auto& c : r.verify.cases) {
    std::cout << "  case " << c.caseName << ": " << (c.passed ? "pass" : "FAIL") << " (blockDim "
              << c.blockDim << ")\n";
    for (const auto& t : c.outputs) std::cout << "    " << t.summary << "\n";
    for (const auto& i : c.modifiedInputs) std::cout << "    " << i.summary << "\n";
  }
  if (!r.profile.is_null()) {
    // The estimate with the model's expected error for its kind of kernel (docs/calibration.md). total_us
    // is the sum over the cases; the error is the slowest case's, which dominates that sum.
    const auto us = r.profile.find("total_us");
    const auto err = r.profile.find("expected_error_pct");  // only the cost model writes it
    if (us != r.profile.end() && us->is_number() && err != r.profile.end() && err->is_number()) {
      char line[128];
      std::snprintf(line, sizeof line, "latency: \u2248 %.4g \u00b5s \u00b1 %.0f %%, emulator estimate\n",
                    us->get<double>(), err->get<double>());
      std::cout << line;
    }
    std::cout << "profile: " << r.profile.dump().substr(0, 400) << "\n";
  }
  for (const auto& [k, v] : r.artifacts) std::cout << "  " << k << ": " << v << "\n";
}

int runEval(const EvalArgs& a) {
  auto bad = [&](const std::string& msg) {
    if (a.json)
      printJson({{"error", msg}, {"verdict", nullptr}});
    else
      std::cerr << "kwb eval: " << msg << "\n";
    return BadInput;
  };
  Task task;
  try {
    task = loadTaskDir(a.task);
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  if (auto why = taskProblemBeforeEvaluation(task, a.soc); !why.empty()) return bad(why);
  if (auto why = a.workDir.empty() ? environmentProblemBeforeEvaluation() : workFolderProblem(a.workDir);
      !why.empty())
    return bad(a.workDir.empty() ? why : "--work-dir " + why);
  std::string readError;
  auto source = readBoundedRegularFile(a.kernel, kMaxSourceReadBytes, readError);
  if (!source) return bad("kernel file: " + readError);
  EvalRequest req;
  req.candidateSource = std::move(*source);
  req.candidateName = fs::path(a.kernel).filename().string();
  req.caseWorkers = a.caseWorkers;
  for (const auto& f : a.files) {
    auto text = readBoundedRegularFile(f, kMaxSourceReadBytes, readError);
    if (!text) {
      std::string why = "--file ";
      why += f;
      why += ": ";
      why += readError;
      return bad(why);
    }
    req.companionFiles[fs::path(f).filename().string()] = std::move(*text);
  }
  if (!a.seed.empty()) {
    try {
      std::size_t pos = 0;
      req.seed = std::stoull(a.seed, &pos, 0);
      if (pos != a.seed.size()) throw std::invalid_argument("trailing characters");
    } catch (const std::exception&) {
      return bad("--seed must be a non-negative integer, got \"" + a.seed + "\"");
    }
  }
  BackendOptions bo;
  bo.soc = a.soc.empty() ? task.soc : a.soc;
  bo.cacheDir = defaultEvalCacheDir();
  // Checked here too (the backends check again) so that a refused cache is one clear message.
  const PrivateDirResult cache = preparePrivateDir(bo.cacheDir);
  if (!cache.ok) return bad(cache.error);
  for (const auto& w : cache.warnings) std::cerr << "kwb eval: warning: " << w << "\n";
  std::string error;
  auto backend = makeBackend(a.backend, bo, error);
  if (!backend) return bad(error);
  req.cacheDir = bo.cacheDir;
  // A fresh, unpredictable folder that goes away at the end; an explicit --work-dir is the user's and stays.
  TempWorkDir work;
  if (a.workDir.empty()) {
    work = TempWorkDir(makeTempWorkDir("kwb-eval-" + task.name + "-", error), a.keepWork);
    if (work.path().empty()) return bad(error);
    req.workDir = work.path();
  } else {
    req.workDir = a.workDir;
  }
  if (!a.json) req.progress = [](const std::string& s) { std::cerr << "kwb eval: " << s << "\n"; };
  // If evaluate() throws, `work` is still removed on the way out.
  EvalReport r = evaluate(task, *backend, req);
  const bool removed = a.workDir.empty() && !a.keepWork;
  if (removed) {
    const fs::path dir = req.workDir;
    if (work.remove()) forgetRemovedPaths(r, dir);
  }
  if (a.json) {
    nlohmann::json j = r;
    j["task"] = task.name;
    j["soc"] = bo.soc;
    j["work_dir_removed"] = removed;
    printJson(j);
  } else {
    printText(r);
    if (a.timings) std::cout << formatPhaseTimings(r.timings, r.durationMs);
    if (removed) std::cout << "  (work folder removed; --keep-work keeps it)\n";
  }
  return r.verdict == Verdict::Pass ? Success : Failed;
}

}  // namespace

void addEvalCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("eval", "Compile, run, verify and profile one candidate kernel for a task");
  auto a = std::make_shared<EvalArgs>();
  cmd->add_option("--task", a->task, "Task folder (task.json, reference.cpp)")->required();
  cmd->add_option("--kernel", a->kernel, "Candidate source file (docs/candidate-contract.md)")->required();
  cmd->add_option("--file", a->files,
                  "Another file of the candidate, by its name (a header; in the operator-project form "
                  "<task>_host.cpp and <task>_tiling.h); repeatable");
  cmd->add_option("--backend", a->backend, "ascend-sim (emulator) or ascend-cann (real CANN toolchain)")
      ->check(CLI::IsMember({"ascend-sim", "ascend-cann"}));
  cmd->add_option("--soc", a->soc, "SoC name (default: the task's)");
  cmd->add_option("--seed", a->seed, "Seed for the random inputs (default: fresh, printed in the report)");
  cmd->add_option("--work-dir", a->workDir,
                  "Where sources, binaries and case files go; kept afterwards (default: a fresh temp folder, "
                  "removed at the end)");
  cmd->add_flag("--keep-work", a->keepWork, "Keep the default temp work folder (its path is in the report)");
  cmd->add_flag("--json", a->json, "Print one JSON document");
  cmd->add_option("--case-workers", a->caseWorkers,
                  "Cases run side by side (default 0: one per core, at most 2); the report is the same")
      ->check(CLI::Range(0, 64));
  cmd->add_flag("--timings", a->timings,
                "Print where the time went, per phase and per case (always in --json, as \"timings\")");
  cmd->callback([&ctx, a] { ctx.action = [a] { return runEval(*a); }; });
}

}  // namespace kwb::cli
