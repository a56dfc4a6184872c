// SPDX-License-Identifier: MIT
#include "core/agent/IterationRunner.h"

#include <chrono>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/agent/ConstraintEnforcer.h"
#include "core/agent/ResponseParser.h"
#include "core/base/TempWorkDir.h"
#include "core/model/Time.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

Diagnostic agentDiagnostic(std::string category, std::string message, Severity sev = Severity::Error) {
  Diagnostic d;
  d.source = "agent";
  d.severity = sev;
  d.category = std::move(category);
  d.message = std::move(message);
  return d;
}

std::vector<Diagnostic> everyDiagnostic(const Iteration& it) {
  std::vector<Diagnostic> out = it.diagnostics;
  if (it.compile) out.insert(out.end(), it.compile->diagnostics.begin(), it.compile->diagnostics.end());
  if (it.run) out.insert(out.end(), it.run->diagnostics.begin(), it.run->diagnostics.end());
  if (it.verify) out.insert(out.end(), it.verify->diagnostics.begin(), it.verify->diagnostics.end());
  return out;
}

}  // namespace

IterationRunner::IterationRunner(SessionStore& store, std::shared_ptr<LlmClient> llm,
                                 std::shared_ptr<CandidateEvaluator> evaluator,
                                 const AgentLoopOptions& options, const Task& task, std::string taskReadme,
                                 IterationHooks hooks)
    : store_(store),
      llm_(std::move(llm)),
      evaluator_(std::move(evaluator)),
      options_(options),
      task_(task),
      taskReadme_(std::move(taskReadme)),
      hooks_(std::move(hooks)),
      reservedNextId_(store_.nextIterationId()) {}

int IterationRunner::reserveIteration(Iteration& it) {
  std::lock_guard lock(idMutex_);
  it.id = std::max(reservedNextId_, store_.nextIterationId());
  reservedNextId_ = it.id + 1;
  it.createdAt = nowIso8601();
  it.updatedAt = it.createdAt;
  store_.saveIteration(it);
  return it.id;
}

void IterationRunner::save(Iteration& it, bool announce) {
  it.updatedAt = nowIso8601();
  if (isFinal(it.state) && !it.finishedAt) it.finishedAt = it.updatedAt;
  store_.saveIteration(it);
  if (announce) hooks_.emit(agent_event::IterationUpdated{it});
}

int IterationRunner::runAgentIteration(const RoundPlan& plan) {
  const Session s = store_.session();
  Iteration it;
  it.parentId = plan.parentId;
  it.origin = llm_->provider() == "replay" ? Origin::Replay : Origin::Agent;
  it.state = IterationState::Generating;
  it.hint = plan.hint;
  it.afterRollback = plan.afterRollback;
  reserveIteration(it);
  hooks_.emit(agent_event::IterationStarted{it});
  setState(AgentState::Generating, it.id, std::string(promptModeName(plan.mode)));

  PromptInput in;
  in.mode = plan.mode;
  in.task = &task_;
  in.taskReadme = taskReadme_;
  in.constraints = plan.constraints;
  in.hint = plan.hint;
  in.previous = plan.parentId ? s.findIteration(*plan.parentId) : nullptr;
  in.lastAttempt = plan.lastAttemptId ? s.findIteration(*plan.lastAttemptId) : nullptr;
  in.baselineUs = plan.baselineUs;
  in.targetSpeedup = s.settings.limits.targetSpeedup;
  in.candidateFileName = options_.candidateFileName;
  in.budget = options_.budget;
  const BuiltPrompt prompt = buildPrompt(options_.prompts, in);
  store_.writeArtifact(it.id, "prompt.md",
                       "<!-- system -->\n" + prompt.request.system + "\n<!-- user -->\n" +
                           prompt.request.messages.front().content);

  try {
    generateAndEvaluate(it, plan, prompt);
  } catch (const AgentStopRequested&) {
    if (!isFinal(it.state)) {
      it.state = IterationState::Stopped;
      save(it);
      hooks_.emit(agent_event::IterationFinished{it});
    }
    throw;
  } catch (const std::exception& e) {
    // Whatever went wrong, the iteration ends with its cause instead of staying `generating`; the
    // round then stops the loop (every candidate failed) with this message.
    if (!isFinal(it.state)) {
      it.state = IterationState::Failed;
      it.diagnostics.push_back(agentDiagnostic("internal-error", std::string("internal error: ") + e.what()));
      try {
        save(it);
      } catch (const std::exception&) {
        // The store refused too: the event below still reports the cause.
      }
      hooks_.emit(agent_event::Error{it.id, std::string("iteration ") + std::to_string(it.id) +
                                                " failed with an internal error: " + e.what()});
      hooks_.emit(agent_event::IterationFinished{it});
    }
  }
  return it.id;
}

void IterationRunner::generateAndEvaluate(Iteration& it, const RoundPlan& plan, const BuiltPrompt& prompt) {
  const int id = it.id;
  StreamObserver so;
  so.onText = [&](std::string_view d) { hooks_.emit(agent_event::TokenStreamed{id, std::string(d), false}); };
  so.onReasoning = [&](std::string_view d) {
    hooks_.emit(agent_event::TokenStreamed{id, std::string(d), true});
  };
  so.onRestart = [&](int, const LlmError&) { hooks_.emit(agent_event::StreamRestarted{id}); };
  so.onRetry = [&](int attempt, std::chrono::milliseconds wait, const LlmError& why) {
    hooks_.emit(agent_event::LlmRetry{id, attempt, static_cast<long long>(wait.count()),
                                      std::string(toString(why.kind)) + ": " + why.message});
  };
  const LlmResponse resp = llm_->complete(prompt.request, so, hooks_.stop);
  LlmUsage usage;
  usage.promptTokens = resp.usage.promptTokens;
  usage.completionTokens = resp.usage.completionTokens;
  usage.model = resp.model;
  usage.provider = resp.provider.empty() ? llm_->provider() : resp.provider;
  usage.durationMs = static_cast<double>(resp.latency.count());
  it.usage = usage;
  if (!resp.text.empty() || !resp.reasoning.empty())
    store_.writeArtifact(
        it.id, "reply.md",
        resp.reasoning.empty() ? resp.text : "<think>\n" + resp.reasoning + "\n</think>\n" + resp.text);

  if (!resp.ok()) {
    if (resp.error.kind == LlmErrorKind::Cancelled || stopping()) {
      it.state = IterationState::Stopped;
      save(it);
      hooks_.emit(agent_event::IterationFinished{it});
      throw AgentStopRequested{};
    }
    it.state = IterationState::Failed;
    it.diagnostics.push_back(
        agentDiagnostic("llm-error", std::string(toString(resp.error.kind)) + ": " + resp.error.message));
    save(it);
    hooks_.emit(agent_event::Error{
        it.id, std::string(kLlmFailurePrefix) + " (" + llm_->describe() + "): " + resp.error.message});
    hooks_.emit(agent_event::IterationFinished{it});
    return;
  }

  ResponseParserOptions po;
  po.defaultFileName = options_.candidateFileName;
  const ParsedReply parsed = parseLlmReply(resp.text, po);
  it.notes = parsed.prose.size() > 4000 ? parsed.prose.substr(0, 4000) : parsed.prose;
  if (!parsed.hasCandidate()) {
    it.verdict = Verdict::Rejected;
    it.state = IterationState::Done;
    it.diagnostics.push_back(agentDiagnostic(
        "no-candidate", parsed.feedback.empty() ? "the reply held no code" : parsed.feedback));
    save(it);
    hooks_.emit(agent_event::DiagnosticsReported{it.id, it.diagnostics});
    hooks_.emit(agent_event::IterationFinished{it});
    return;
  }
  for (const auto& f : parsed.files) it.candidate.files[f.name] = f.content;  // names checked by the parser
  it.candidate.origin = it.origin;
  // Choices the parser made that the model should hear about (which kernel of several was used).
  for (const auto& w : parsed.warnings)
    it.diagnostics.push_back(agentDiagnostic(std::string(category::AmbiguousReply), w, Severity::Warning));
  if (parsed.truncated)
    it.diagnostics.push_back(agentDiagnostic(
        "truncated-reply", "the reply was cut off inside its code block (token limit?)", Severity::Warning));
  it.state = IterationState::Compiling;
  save(it);
  boundary(StepBoundary::Generated);
  evaluateIteration(it, plan.constraints, true);
  return;
}

int IterationRunner::runEdit(Candidate candidate, std::optional<int> parentId) {
  Iteration it;
  if (parentId && !store_.iteration(*parentId)) parentId.reset();
  it.parentId = parentId;
  const bool imported = candidate.origin == Origin::Imported;
  it.origin = imported ? Origin::Imported : Origin::Human;
  candidate.origin = it.origin;
  it.candidate = std::move(candidate);
  it.state = IterationState::Compiling;
  it.notes = imported ? "imported from an operator project" : "edited by the engineer";
  reserveIteration(it);
  hooks_.emit(agent_event::IterationStarted{it});
  setState(AgentState::Compiling, it.id,
           imported ? "evaluating the imported operator project" : "evaluating the engineer's edit");
  evaluateIteration(it, store_.session().constraints, false);
  return it.id;
}

void IterationRunner::reEvaluate(int iterationId) {
  auto it = store_.iteration(iterationId);
  if (!it) return;
  setState(AgentState::Compiling, iterationId,
           "re-evaluating iteration " + std::to_string(iterationId) + " after an interruption");
  evaluateIteration(*it, store_.session().constraints, false);
}

std::vector<int> IterationRunner::recoverInterrupted() {
  std::vector<int> again;
  const Session s = store_.session();
  for (const auto& it : s.iterations) {
    if (isFinal(it.state)) continue;
    if (!it.candidate.empty() && it.state != IterationState::Generating) {
      again.push_back(it.id);
      continue;
    }
    Iteration copy = it;
    copy.state = IterationState::Stopped;
    copy.notes +=
        (copy.notes.empty() ? "" : "\n") + std::string("interrupted before its candidate was complete");
    copy.updatedAt = nowIso8601();
    store_.saveIteration(copy);
  }
  return again;
}

void IterationRunner::keepProfileArtifacts(int id, const fs::path& dir, ProfileReport& profile) {
  // The profiled case (the slowest) left the trusted side's trace and CSVs in its case folder.
  if (dir.empty()) return;
  static constexpr std::pair<const char*, const char*> kFiles[] = {
      {"trace", "trace.json"},
      {"pipe_utilization", "PipeUtilization.csv"},
      {"op_basic_info", "OpBasicInfo.csv"},
      {"code_hotspot", "code_hotspot.csv"}};
  for (const auto& [label, name] : kFiles) {
    std::ifstream in(dir / name, std::ios::binary);
    if (!in) continue;
    std::ostringstream content;
    content << in.rdbuf();
    store_.writeArtifact(id, name, content.str());
    profile.artifacts[label] = name;
  }
}

void IterationRunner::evaluateIteration(Iteration& it, const std::vector<Constraint>& constraints,
                                        bool boundaries) {
  const int id = it.id;
  // The files themselves (an engineer's edit or a recovered iteration never went through the parser),
  // then the pinned constraints: a breach is rejected without compiling or running anything.
  std::vector<Diagnostic> violations;
  for (const auto& problem : candidateFileProblems(it.candidate.files))
    violations.push_back(agentDiagnostic(std::string(category::PolicyViolation), problem));
  const ConstraintEnforcer enforcer(constraints);
  if (violations.empty()) violations = enforcer.before(it.candidate);
  if (!violations.empty()) {
    it.diagnostics.insert(it.diagnostics.end(), violations.begin(), violations.end());
    it.verdict = Verdict::Rejected;
    it.state = IterationState::Done;
    save(it);
    hooks_.emit(agent_event::DiagnosticsReported{id, violations});
    hooks_.emit(agent_event::IterationFinished{it});
    return;
  }
  setState(AgentState::Compiling, id);
  EvaluationContext ctx;
  ctx.workDir = options_.workRoot / ("iteration-" + SessionStore::iterationFolderName(id));
  ctx.cacheDir = options_.cacheDir;
  // The work folder (sources, binary, every case's files: 30-200 MB) goes when this function returns,
  // however it returns; what the session keeps is copied into it before then.
  TempWorkDir iterationWork(ctx.workDir, options_.keepWork);
  ctx.seed = options_.seed;
  ctx.onPhase = [&](EvalPhase phase) {
    if (stopping()) throw AgentStopRequested{};
    if (phase == EvalPhase::Running) {
      if (boundaries) boundary(StepBoundary::Compiled);
      it.state = IterationState::Running;
      save(it);
      setState(AgentState::Running, id);
    }
  };
  // The loop takes no engineer's edit while an evaluation is in flight (edits are not nested in one).
  struct InFlight {
    const IterationHooks& h;
    explicit InFlight(const IterationHooks& hooks) : h(hooks) {
      if (h.evaluating) h.evaluating(true);
    }
    ~InFlight() {
      if (h.evaluating) h.evaluating(false);
    }
  } inFlight(hooks_);
  EvaluationOutcome out;
  try {
    std::error_code ec;
    fs::remove_all(ctx.workDir, ec);
    out = evaluator_->evaluate(task_, it.candidate, ctx);
  } catch (const AgentStopRequested&) {
    it.state = IterationState::Stopped;
    save(it);
    hooks_.emit(agent_event::IterationFinished{it});
    throw;
  } catch (const std::exception& e) {
    it.state = IterationState::Failed;
    it.diagnostics.push_back(
        agentDiagnostic("evaluation-failed", std::string("evaluation failed: ") + e.what()));
    save(it);
    hooks_.emit(agent_event::Error{
        id, std::string("evaluating iteration ") + std::to_string(id) + " failed: " + e.what()});
    hooks_.emit(agent_event::IterationFinished{it});
    return;
  }
  it.compile = out.compile;
  it.run = out.run;
  it.diagnostics.insert(it.diagnostics.end(), out.diagnostics.begin(), out.diagnostics.end());
  // Its paths name the work folder, which is removed at the end of this evaluation.
  if (!options_.keepWork) out.report["work_dir_removed"] = true;
  store_.writeArtifact(id, "eval.json", out.report.dump(2));
  if (it.compile && !it.compile->log.empty()) store_.writeArtifact(id, "compile.log", it.compile->log);

  // Verifying: the verifier's account, persisted, then every finding announced.
  setState(AgentState::Verifying, id);
  it.verify = out.verify;
  it.state = IterationState::Verifying;
  save(it);
  const auto all = everyDiagnostic(it);
  if (!all.empty()) hooks_.emit(agent_event::DiagnosticsReported{id, all});
  if (boundaries) boundary(StepBoundary::Verified);

  // Profiling: the cost model's (or msprof's) report, and the fixed blockDim constraint.
  setState(AgentState::Profiling, id);
  it.profile = out.profile;
  if (it.profile) keepProfileArtifacts(id, out.profileArtifactsDir, *it.profile);
  it.state = IterationState::Profiling;
  Verdict verdict = out.verdict;
  if (const auto late = enforcer.after(out.report); !late.empty()) {
    it.diagnostics.insert(it.diagnostics.end(), late.begin(), late.end());
    hooks_.emit(agent_event::DiagnosticsReported{id, late});
    verdict = Verdict::Rejected;
  }
  save(it);
  if (it.profile) hooks_.emit(agent_event::ProfileReady{id, *it.profile});

  it.verdict = verdict;
  it.state = IterationState::Done;
  // What the next prompt is told about this iteration (before any budget trimming), for the
  // conversation panel and for people reading the session folder.
  store_.writeArtifact(id, "feedback.md", describeFeedback(it, options_.candidateFileName));
  save(it);
  hooks_.emit(agent_event::IterationFinished{it});
}

}  // namespace kwb
