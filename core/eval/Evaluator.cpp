// SPDX-License-Identifier: MIT
#include "core/eval/Evaluator.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/base/InstallLayout.h"
#include "core/diag/DiagnosticLocation.h"
#include "core/emulator/costmodel/SocParams.h"
#include "core/eval/CandidatePolicy.h"
#include "core/eval/CaseDataCache.h"
#include "core/eval/CaseMemory.h"
#include "core/eval/CaseWork.h"
#include "core/eval/OrderedWorkers.h"
#include "core/model/ProjectIncludes.h"
#include "core/verify/AttributeCorrelation.h"
#include "core/verify/BlockRangeCause.h"
#include "core/verify/InputGenerator.h"
#include "core/verify/ProfileSummary.h"
#include "core/verify/ReferenceRunner.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

// Both cores of the development machine by default (docs/architecture.md, "Evaluation caches and
// parallel cases"); more workers than cores only add waiting.
std::size_t caseWorkerCount(int requested) {
  if (requested > 0) return static_cast<std::size_t>(requested);
  return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 2);
}

Diagnostic cacheWarning(const std::string& message) {
  Diagnostic d;
  d.source = "toolchain";
  d.severity = Severity::Warning;
  d.category = std::string(category::CacheIntegrity);
  d.message = message;
  return d;
}

bool hasCategory(const std::vector<Diagnostic>& ds, std::string_view c) {
  for (const auto& d : ds)
    if (d.category == c && d.isError()) return true;
  return false;
}
}  // namespace

const char* evalStageName(EvalStage s) {
  switch (s) {
    case EvalStage::Policy:
      return "policy";
    case EvalStage::Compile:
      return "compile";
    case EvalStage::Run:
      return "run";
    case EvalStage::Verify:
      return "verify";
    case EvalStage::Profile:
      return "profile";
  }
  return "";
}

namespace {
EvalReport evaluateFlat(const Task& task, Backend& backend, const EvalRequest& req);
}  // namespace

EvalReport evaluate(const Task& task, Backend& backend, const EvalRequest& req) {
  // msopgen's cross-folder includes ("../op_kernel/<op>_tiling.h") name the flat candidate files
  // (core/model/ProjectIncludes.h); the evaluated copy spells them flat, the stored files do not change.
  EvalRequest flat = req;
  if (flattenProjectIncludes(flat.candidateSource, flat.candidateName, flat.companionFiles))
    return evaluateFlat(task, backend, flat);
  return evaluateFlat(task, backend, req);
}

namespace {
EvalReport evaluateFlat(const Task& task, Backend& backend, const EvalRequest& req) {
  const auto start = std::chrono::steady_clock::now();
  EvalReport rep;
  PhaseClock clock(rep.timings);
  rep.backend = backend.name();
  rep.ranOn = backend.ranOn();
  rep.seed = req.seed ? *req.seed : verify::freshSeed();
  rep.verify.seed = rep.seed;
  auto say = [&](const std::string& s) {
    if (req.progress) req.progress(s);
  };
  auto stage = [&](EvalStage st, const std::string& caseName) {
    if (req.onStage) req.onStage(st, caseName);
  };
  auto finish = [&](Verdict v, const std::string& summary) {
    rep.verdict = v;
    rep.summary = std::string(verdictName(v)) + ": " + summary;
    rep.artifacts = backend.artifacts();
    rep.artifacts["work_dir"] = fs::absolute(req.workDir).string();
    rep.durationMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return rep;
  };

  // 1. Policy.
  const fs::path cache = req.cacheDir.empty() ? req.workDir / "cache" : req.cacheDir;
  std::vector<Diagnostic> policy;
  if (req.policyChecks) {
    say("policy");
    stage(EvalStage::Policy, "");
    CandidatePolicyOutcome checked = checkCandidateForEvaluation(task, backend, req, cache);
    for (const auto& w : checked.warnings) rep.diagnostics.push_back(cacheWarning(w));
    policy = std::move(checked.problems);
    if (policy.empty() && !checked.formProblems.empty()) {
      rep.diagnostics.insert(rep.diagnostics.end(), checked.formProblems.begin(), checked.formProblems.end());
      return finish(Verdict::CompileError, checked.formProblems.front().format());
    }
  }
  if (req.policyChecks) clock.lap("policy");
  if (!policy.empty()) {
    if (std::none_of(policy.begin(), policy.end(),
                     [](const Diagnostic& d) { return d.category == category::PolicyViolation; })) {
      // The preprocessor itself failed (an error in the candidate's includes or macros, or a limit).
      rep.diagnostics.insert(rep.diagnostics.end(), policy.begin(), policy.end());
      return finish(
          policy.front().category == category::CompileError ? Verdict::CompileError : Verdict::RuntimeError,
          policy.front().format());
    }
    rep.diagnostics.insert(rep.diagnostics.end(), policy.begin(), policy.end());
    return finish(Verdict::Rejected,
                  std::to_string(policy.size()) + " policy violation(s), first: " + policy.front().format());
  }

  // 2. Prepare + compile.
  std::error_code ec;
  fs::create_directories(req.workDir, ec);
  if (ec) throw std::runtime_error("cannot create work folder " + req.workDir.string() + ": " + ec.message());
  if (fs::absolute(req.workDir).string().find_first_of(" \t\n") != std::string::npos)
    throw std::runtime_error("work folder path must not contain whitespace: " + req.workDir.string());
  auto prep = backend.prepare(task, req.candidateSource, req.workDir, req.companionFiles);
  clock.lap("prepare");
  if (!prep.empty()) {
    rep.diagnostics = prep;
    return finish(Verdict::RuntimeError, prep.front().message);
  }
  say("compile (" + backend.name() + ")");
  stage(EvalStage::Compile, "");
  rep.compile = backend.compile();
  clock.lap("compile");
  for (const auto& d : rep.compile->diagnostics) rep.diagnostics.push_back(d);
  if (!rep.compile->ok) {
    std::string first = "compilation failed";
    for (const auto& d : rep.compile->diagnostics)
      if (d.isError()) {
        first = d.format();
        break;
      }
    return finish(Verdict::CompileError, first);
  }

  // 3. Reference.
  verify::ReferenceRunner refRunner(cache);
  const auto refBuild = refRunner.build(task);
  clock.lap("reference-build");
  if (!refBuild.ok) throw std::runtime_error(refBuild.log);
  // A discarded cache entry or folder (docs/sandbox.md, "Caches").
  for (const auto& w : refBuild.warnings) rep.diagnostics.push_back(cacheWarning(w));

  // 4. Cases. Their inputs and reference outputs come from trusted code only and are reused across
  // evaluations of the same task and seed (CaseDataCache.h).
  const CaseDataCache caseData(cache / "cases", task, rep.seed);
  std::vector<verify::CaseProfile> caseProfiles;
  // The roofline floor of each case comes from its tensors' bytes on the SoC's GM bandwidth, never
  // from the kernel's own trace alone (a trace that omits work would lower it).
  std::optional<verify::GmBandwidth> bandwidth;
  try {
    bandwidth = verify::gmBandwidthOf(sim::loadSocByName(backend.soc().empty() ? task.soc : backend.soc(),
                                                         socDirectory(currentInstallLayout())));
  } catch (const std::exception&) {
  }
  std::mutex progressMutex;
  const CaseWorkContext context{task,
                                backend,
                                fs::absolute(req.workDir),
                                rep.seed,
                                caseData,
                                refRunner,
                                refBuild,
                                [&](const std::string& line) {
                                  const std::lock_guard lock(progressMutex);
                                  say(line);
                                }};
  // Large cases run one at a time: two side by side would need twice the memory (CaseMemory.h).
  const bool anyLarge = std::any_of(task.cases.begin(), task.cases.end(), [&](const VerificationCase& c) {
    return caseMemoryNeed(task, c).large();
  });
  const std::size_t workers =
      backend.runsCasesConcurrently() && !anyLarge ? caseWorkerCount(req.caseWorkers) : 1;
  OrderedWorkers<CaseWork> caseWork(task.cases.size(), workers,
                                    [&](std::size_t k) { return runCaseWork(context, task.cases[k]); });
  for (std::size_t caseIndex = 0; caseIndex < task.cases.size(); ++caseIndex) {
    const auto& vc = task.cases[caseIndex];
    say("case " + vc.name);
    stage(EvalStage::Run, vc.name);
    CaseWork work = caseWork.take(caseIndex);
    const verify::PreparedCase& prepared = work.prepared;
    const CaseFiles& files = work.files;
    CaseRunResult& run = work.run;
    rep.timings.insert(rep.timings.end(), work.inputsTiming.begin(), work.inputsTiming.end());
    rep.timings.insert(rep.timings.end(), work.runTimings.begin(), work.runTimings.end());
    for (const auto& w : work.cacheWarnings) rep.diagnostics.push_back(cacheWarning(w));
    clock.skip();
    stage(EvalStage::Profile, vc.name);
    const nlohmann::json caseProfile = backend.profile(run);
    rep.runs.push_back(CaseRunSummary{vc.name, run.run, run.tiling, files.dir.string(), caseProfile});
    // The tiling function's findings (a bad blockDim) point at its call in the candidate's source.
    if (locateTilingCalls(run.run.diagnostics, req.candidateName, req.candidateSource) == 0)
      for (const auto& [name, text] : req.companionFiles) locateTilingCalls(run.run.diagnostics, name, text);
    for (auto d : run.run.diagnostics) {
      d.notes.insert(d.notes.begin(), "case " + vc.name);
      rep.diagnostics.push_back(std::move(d));
    }
    {
      std::optional<double> floor;
      if (bandwidth) {
        const auto bytes = verify::tensorBytesOf(prepared);
        floor = verify::floorUsFromTensorBytes(bytes.read, bytes.written, *bandwidth);
      }
      caseProfiles.push_back({vc.name, caseProfile, floor});
      rep.profile = verify::summarizeProfiles(caseProfiles);
      // The detail the summary carries is the slowest case's: its trace and CSVs go with it.
      const std::string slowest = rep.profile.is_object() && rep.profile.contains("slowest_case") &&
                                          rep.profile["slowest_case"].is_object()
                                      ? rep.profile["slowest_case"].value("name", std::string())
                                      : std::string();
      for (std::size_t k = 0; k < rep.runs.size(); ++k)
        if (rep.runs[k].caseName == slowest) rep.profiledCase = static_cast<int>(k);
    }
    clock.lap("profile", vc.name);
    if (run.run.status == RunStatus::Timeout || hasCategory(run.run.diagnostics, category::Timeout))
      return finish(Verdict::Timeout, "case " + vc.name + " did not finish in time");
    if (run.run.status != RunStatus::Ok) {
      std::string first = "the run failed";
      for (const auto& d : run.run.diagnostics)
        if (d.isError()) {
          first = d.format();
          break;
        }
      return finish(Verdict::RuntimeError, "case " + vc.name + ": " + first);
    }
    stage(EvalStage::Verify, vc.name);
    rep.timings.insert(rep.timings.end(), work.referenceTiming.begin(), work.referenceTiming.end());
    if (!work.expected) throw std::runtime_error("reference of case " + vc.name + ": " + work.referenceError);
    clock.skip();
    rep.verify.cases.push_back(backend.verify(task, prepared, *work.expected, run));
    clock.lap("verify", vc.name);
  }
  // Cause first: an attribute that separates the failing cases from the passing ones points at the
  // literal that replaced it (docs/emulator.md, "Cause lines").
  if (auto d = verify::attributeCorrelation(task, rep.verify.cases, req.candidateName, req.candidateSource))
    rep.diagnostics.push_back(std::move(*d));
  if (auto d = verify::blockRangeShiftCause(rep.verify.cases, req.candidateName, req.candidateSource))
    rep.diagnostics.push_back(std::move(*d));
  for (const auto& d : rep.verify.diagnostics()) rep.diagnostics.push_back(d);
  if (!rep.verify.passed()) return finish(Verdict::WrongAnswer, rep.verify.summary());
  return finish(Verdict::Pass, rep.verify.summary());
}
}  // namespace

void to_json(nlohmann::json& j, const EvalReport& r) {
  j = nlohmann::json::object();
  j["verdict"] = verdictName(r.verdict);
  j["summary"] = r.summary;
  j["backend"] = r.backend;
  j["ran_on"] = ranOnName(r.ranOn);
  j["seed"] = r.seed;
  j["diagnostics"] = r.diagnostics;
  if (r.compile) j["compile"] = *r.compile;
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& c : r.runs)
    runs.push_back({{"case", c.caseName},
                    {"run", c.run},
                    {"block_dim", c.tiling.blockDim},
                    {"tiling_rc", c.tiling.rc},
                    {"workspace_bytes", c.tiling.workspaceSize},
                    {"tiling_key", c.tiling.tilingKey},
                    {"dir", c.dir},
                    {"profile", c.profile}});
  j["runs"] = runs;
  j["verify"] = r.verify;
  j["profile"] = r.profile;
  j["profiled_case"] = r.profiledCase >= 0
                           ? nlohmann::json(r.runs[static_cast<std::size_t>(r.profiledCase)].caseName)
                           : nlohmann::json();
  j["artifacts"] = r.artifacts;
  j["duration_ms"] = r.durationMs;
  j["timings"] = r.timings;
}

}  // namespace kwb
