// SPDX-License-Identifier: MIT
#include "bench/mutation/MutationRunner.h"

#include <algorithm>
#include <stdexcept>

#include "core/agent/WorkRootJanitor.h"
#include "core/base/BoundedFileRead.h"
#include "core/base/PrivateCacheDir.h"
#include "core/base/TempWorkDir.h"
#include "core/eval/Evaluator.h"
#include "core/toolchain/Backend.h"

namespace kwb::mutation {
namespace {

namespace fs = std::filesystem;

EvalReport evaluateSource(const Task& task, const std::string& source, const RunOptions& options) {
  BackendOptions bo;
  bo.soc = task.soc;
  bo.cacheDir = options.cacheDir.empty() ? defaultEvalCacheDir() : options.cacheDir;
  std::string error;
  auto backend = makeBackend("ascend-sim", bo, error);
  if (!backend) throw std::runtime_error("emulator backend: " + error);
  TempWorkDir work(makeTempWorkDir(std::string(kMutationScratchPrefix) + task.name + "-", error));
  if (work.path().empty()) throw std::runtime_error("work folder: " + error);
  if (const std::string markError = writeScratchOwner(work.path()); !markError.empty())
    throw std::runtime_error("work folder: " + markError);
  EvalRequest req;
  req.candidateSource = source;
  req.candidateName = kCandidateName;
  req.seed = options.seed;
  req.workDir = work.path();
  req.cacheDir = bo.cacheDir;
  return evaluate(task, *backend, req);
}

}  // namespace

std::size_t removeAbandonedMutationScratch() {
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  if (ec) return 0;
  return removeAbandonedScratch(base, kMutationScratchPrefix).size();
}

std::vector<Expert> loadExperts(const fs::path& tasksDir, const std::vector<std::string>& only) {
  std::vector<Expert> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(tasksDir, ec)) {
    const fs::path expertFile = entry.path() / "expert_candidate.cpp";
    if (!entry.is_directory() || !fs::exists(entry.path() / "task.json") || !fs::exists(expertFile)) continue;
    const std::string name = entry.path().filename().string();
    if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
    Expert e;
    e.task = loadTaskDir(entry.path());
    std::string error;
    auto source = readBoundedRegularFile(expertFile, kMaxSourceReadBytes, error);
    if (!source) throw std::runtime_error(expertFile.string() + ": " + error);
    e.kernel.task = e.task.name;
    e.kernel.source = std::move(*source);
    for (const auto& t : e.task.outputs) e.kernel.outputNames.push_back(t.name);
    for (const auto& a : e.task.attrs) e.kernel.attrNames.push_back(a.name);
    out.push_back(std::move(e));
  }
  if (ec) throw std::runtime_error(tasksDir.string() + ": " + ec.message());
  std::sort(out.begin(), out.end(),
            [](const Expert& a, const Expert& b) { return a.task.name < b.task.name; });
  for (const auto& name : only)
    if (std::none_of(out.begin(), out.end(), [&](const Expert& e) { return e.task.name == name; }))
      throw std::runtime_error(tasksDir.string() + ": no task " + name + " with an expert_candidate.cpp");
  return out;
}

MutantOutcome evaluateMutant(const Task& task, const Mutant& mutant, const RunOptions& options) {
  const EvalReport r = evaluateSource(task, mutant.source, options);
  return scoreMutant(mutant, r.verdict, r.diagnostics, kCandidateName);
}

ExpertOutcome evaluateExpert(const Expert& expert, const RunOptions& options) {
  const EvalReport r = evaluateSource(expert.task, expert.kernel.source, options);
  return scoreExpert(expert.task.name, r.verdict, r.diagnostics);
}

}  // namespace kwb::mutation
