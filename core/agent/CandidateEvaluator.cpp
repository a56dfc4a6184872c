// SPDX-License-Identifier: MIT
#include "core/agent/CandidateEvaluator.h"
#include "core/agent/FactoryBackendEvaluator.h"

#include <algorithm>
#include <stdexcept>

#include "core/eval/Evaluator.h"
#include "core/verify/ReportAdapter.h"

namespace kwb {

std::optional<ProfileReport> profileFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  ProfileReport p;
  p.soc = j.value("soc", std::string());
  p.source = j.value("source", std::string("emulator-model"));
  if (auto it = j.find("total_cycles"); it != j.end() && it->is_number())
    p.totalCycles = it->get<std::int64_t>();
  if (auto it = j.find("total_us"); it != j.end() && it->is_number()) p.totalUs = it->get<double>();
  if (auto it = j.find("pipes"); it != j.end() && it->is_object()) {
    for (const auto& [name, v] : it->items()) {
      PipeStat s;
      if (v.is_object()) {
        s.busyCycles = v.value("busy_cycles", std::int64_t{0});
        s.ratio = v.value("ratio", 0.0);
      }
      p.pipes[name] = s;
    }
  }
  p.bound = j.value("bound", std::string());
  if (auto it = j.find("floor_us"); it != j.end() && it->is_number()) p.floorUs = it->get<double>();
  p.gmBytes = j.value("gm_read_bytes", std::int64_t{0}) + j.value("gm_write_bytes", std::int64_t{0});
  if (p.gmBytes == 0)
    p.gmBytes = j.value("gm_to_ub_bytes", std::int64_t{0}) + j.value("ub_to_gm_bytes", std::int64_t{0});
  if (auto it = j.find("achieved_gbps"); it != j.end() && it->is_number()) p.achievedGbps = it->get<double>();
  nlohmann::json extra = nlohmann::json::object();
  for (const char* key :
       {"block_dim", "cores", "cores_used", "waves", "floor", "floor_ratio", "lines", "model", "kernel",
        "cases", "slowest_case", "computed_by", "expected_error_pct", "estimate"})
    if (auto it = j.find(key); it != j.end()) extra[key] = *it;
  p.extra = std::move(extra);
  return p;
}

EvaluationOutcome outcomeFromReport(const EvalReport& r) {
  EvaluationOutcome o;
  o.verdict = r.verdict;
  o.summary = r.summary;
  o.seed = r.seed;
  o.compile = r.compile;
  if (!r.runs.empty()) {
    const CaseRunSummary* pick = &r.runs.back();
    for (const auto& c : r.runs)
      if (c.run.status != RunStatus::Ok) {
        pick = &c;
        break;
      }
    RunResult run = pick->run;
    // Diagnostics of every case, each once, so a warning of an earlier case is not lost.
    for (const auto& c : r.runs) {
      if (&c == pick) continue;
      for (const auto& d : c.run.diagnostics)
        if (std::find(run.diagnostics.begin(), run.diagnostics.end(), d) == run.diagnostics.end())
          run.diagnostics.push_back(d);
    }
    o.run = std::move(run);
  }
  if (!r.verify.cases.empty())
    o.verify = verify::toVerifyReport(r.verify, r.verify.passed() ? Verdict::Pass : Verdict::WrongAnswer);
  o.profile = profileFromJson(r.profile);
  if (r.profiledCase >= 0) o.profileArtifactsDir = r.runs[static_cast<std::size_t>(r.profiledCase)].dir;
  // Whatever the parts above do not hold (policy, preparation) stays on the iteration itself.
  auto held = [&](const Diagnostic& d) {
    auto in = [&](const std::vector<Diagnostic>& v) { return std::find(v.begin(), v.end(), d) != v.end(); };
    if (o.compile && in(o.compile->diagnostics)) return true;
    if (o.run && in(o.run->diagnostics)) return true;
    if (o.verify && in(o.verify->diagnostics)) return true;
    for (const auto& c : r.runs)
      for (const auto& rd : c.run.diagnostics)
        if (rd.message == d.message && rd.category == d.category && rd.line == d.line) return true;
    return false;
  };
  for (const auto& d : r.diagnostics)
    if (!held(d)) o.diagnostics.push_back(d);
  o.report = r;
  return o;
}

BackendEvaluator::BackendEvaluator(std::string backend, std::string soc,
                                   std::optional<std::chrono::milliseconds> caseTimeout)
    : backend_(std::move(backend)), soc_(std::move(soc)), caseTimeout_(caseTimeout) {
  if (backend_ != "ascend-sim" && backend_ != "ascend-cann")
    throw std::invalid_argument("unknown backend \"" + backend_ + "\" (ascend-sim or ascend-cann)");
}

EvaluationOutcome BackendEvaluator::evaluate(const Task& task, const Candidate& candidate,
                                             const EvaluationContext& ctx) {
  BackendOptions bo;
  bo.soc = soc_.empty() ? task.soc : soc_;
  bo.cacheDir = ctx.cacheDir;
  if (caseTimeout_) bo.caseTimeout = *caseTimeout_;
  std::string error;
  auto backend = makeBackend(backend_, bo, error);
  if (!backend) throw std::runtime_error("backend " + backend_ + ": " + error);
  return evaluateOnBackend(*backend, task, candidate, ctx);
}

EvaluationOutcome evaluateOnBackend(Backend& backend, const Task& task, const Candidate& candidate,
                                    const EvaluationContext& ctx) {
  auto [name, source] = primaryCandidateFile(candidate);
  EvalRequest req;
  req.candidateSource = source;
  req.candidateName = name;
  for (const auto& [file, text] : candidate.files)
    if (file != name) req.companionFiles[file] = text;
  req.seed = ctx.seed;
  req.workDir = ctx.workDir;
  req.cacheDir = ctx.cacheDir;
  // Stages arrive typed, as they begin; each phase is announced once, the first time it starts.
  bool seen[4] = {false, false, false, false};
  req.onStage = [&](EvalStage stage, const std::string&) {
    if (!ctx.onPhase) return;
    std::optional<EvalPhase> phase;
    switch (stage) {
      case EvalStage::Policy:
        break;
      case EvalStage::Compile:
        phase = EvalPhase::Compiling;
        break;
      case EvalStage::Run:
        phase = EvalPhase::Running;
        break;
      case EvalStage::Verify:
        phase = EvalPhase::Verifying;
        break;
      case EvalStage::Profile:
        phase = EvalPhase::Profiling;
        break;
    }
    if (!phase || seen[static_cast<int>(*phase)]) return;
    seen[static_cast<int>(*phase)] = true;
    ctx.onPhase(*phase);
  };
  const EvalReport report = kwb::evaluate(task, backend, req);
  return outcomeFromReport(report);
}

}  // namespace kwb
