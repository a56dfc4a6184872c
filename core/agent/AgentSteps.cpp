// The steps of one iteration: generate (prompt, stream, parse), then evaluate (constraints, compile,
// run, verify, profile, verdict), persisting after each.
#include <chrono>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/agent/AgentLoopImpl.h"
#include "core/agent/ConstraintEnforcer.h"
#include "core/agent/ResponseParser.h"
#include "core/model/Time.h"
#include "core/toolchain/TempWorkDir.h"

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

int AgentLoop::Impl::reserveIteration(Iteration& it) {
  std::lock_guard lock(mutex);
  it.id = std::max(reservedNextId, store.nextIterationId());
  reservedNextId = it.id + 1;
  it.createdAt = nowIso8601();
  it.updatedAt = it.createdAt;
  store.saveIteration(it);
  return it.id;
}

void AgentLoop::Impl::save(Iteration& it, bool announce) {
  it.updatedAt = nowIso8601();
  if (isFinal(it.state) && !it.finishedAt) it.finishedAt = it.updatedAt;
  store.saveIteration(it);
  if (announce) emit(agent_event::IterationUpdated{it});
}

int AgentLoop::Impl::runAgentIteration(const RoundPlan& plan) {
  const Session s = store.session();
  Iteration it;
  it.parentId = plan.parentId;
  it.origin = llm->provider() == "replay" ? Origin::Replay : Origin::Agent;
  it.state = IterationState::Generating;
  it.hint = plan.hint;
  reserveIteration(it);
  emit(agent_event::IterationStarted{it});
  setState(AgentState::Generating, it.id, std::string(promptModeName(plan.mode)));

  PromptInput in;
  in.mode = plan.mode;
  in.task = &task;
  in.taskReadme = taskReadme;
  in.constraints = plan.constraints;
  in.hint = plan.hint;
  in.previous = plan.parentId ? s.findIteration(*plan.parentId) : nullptr;
  in.lastAttempt = plan.lastAttemptId ? s.findIteration(*plan.lastAttemptId) : nullptr;
  in.baselineUs = plan.baselineUs;
  in.targetSpeedup = s.settings.limits.targetSpeedup;
  in.candidateFileName = options.candidateFileName;
  in.budget = options.budget;
  const BuiltPrompt prompt = buildPrompt(options.prompts, in);
  store.writeArtifact(it.id, "prompt.md",
                      "<!-- system -->\n" + prompt.request.system + "\n<!-- user -->\n" +
                          prompt.request.messages.front().content);

  try {
    generateAndEvaluate(it, plan, prompt);
  } catch (const AgentStopRequested&) {
    if (!isFinal(it.state)) {
      it.state = IterationState::Stopped;
      save(it);
      emit(agent_event::IterationFinished{it});
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
      emit(agent_event::Error{it.id, std::string("iteration ") + std::to_string(it.id) +
                                         " failed with an internal error: " + e.what()});
      emit(agent_event::IterationFinished{it});
    }
  }
  return it.id;
}

void AgentLoop::Impl::generateAndEvaluate(Iteration& it, const RoundPlan& plan, const BuiltPrompt& prompt) {
  const int id = it.id;
  StreamObserver so;
  so.onText = [&](std::string_view d) { emit(agent_event::TokenStreamed{id, std::string(d), false}); };
  so.onReasoning = [&](std::string_view d) { emit(agent_event::TokenStreamed{id, std::string(d), true}); };
  so.onRestart = [&](int, const LlmError&) { emit(agent_event::StreamRestarted{id}); };
  so.onRetry = [&](int attempt, std::chrono::milliseconds wait, const LlmError& why) {
    emit(agent_event::LlmRetry{id, attempt, static_cast<long long>(wait.count()),
                               std::string(toString(why.kind)) + ": " + why.message});
  };
  const LlmResponse resp = llm->complete(prompt.request, so, &stopRequested);
  LlmUsage usage;
  usage.promptTokens = resp.usage.promptTokens;
  usage.completionTokens = resp.usage.completionTokens;
  usage.model = resp.model;
  usage.provider = resp.provider.empty() ? llm->provider() : resp.provider;
  usage.durationMs = static_cast<double>(resp.latency.count());
  it.usage = usage;
  if (!resp.text.empty() || !resp.reasoning.empty())
    store.writeArtifact(
        it.id, "reply.md",
        resp.reasoning.empty() ? resp.text : "<think>\n" + resp.reasoning + "\n</think>\n" + resp.text);

  if (!resp.ok()) {
    if (resp.error.kind == LlmErrorKind::Cancelled || stopRequested) {
      it.state = IterationState::Stopped;
      save(it);
      emit(agent_event::IterationFinished{it});
      throw AgentStopRequested{};
    }
    it.state = IterationState::Failed;
    it.diagnostics.push_back(
        agentDiagnostic("llm-error", std::string(toString(resp.error.kind)) + ": " + resp.error.message));
    save(it);
    emit(agent_event::Error{
        it.id, std::string(kLlmFailurePrefix) + " (" + llm->describe() + "): " + resp.error.message});
    emit(agent_event::IterationFinished{it});
    return;
  }

  ResponseParserOptions po;
  po.defaultFileName = options.candidateFileName;
  const ParsedReply parsed = parseLlmReply(resp.text, po);
  it.notes = parsed.prose.size() > 4000 ? parsed.prose.substr(0, 4000) : parsed.prose;
  if (!parsed.hasCandidate()) {
    it.verdict = Verdict::Rejected;
    it.state = IterationState::Done;
    it.diagnostics.push_back(agentDiagnostic(
        "no-candidate", parsed.feedback.empty() ? "the reply held no code" : parsed.feedback));
    save(it);
    emit(agent_event::DiagnosticsReported{it.id, it.diagnostics});
    emit(agent_event::IterationFinished{it});
    return;
  }
  for (const auto& f : parsed.files) {
    if (!isValidCandidateFileName(f.name)) continue;
    it.candidate.files[f.name] = f.content;
  }
  if (it.candidate.files.empty())
    it.candidate.files[options.candidateFileName] = parsed.files.front().content;
  it.candidate.origin = it.origin;
  if (parsed.truncated)
    it.diagnostics.push_back(agentDiagnostic(
        "truncated-reply", "the reply was cut off inside its code block (token limit?)", Severity::Warning));
  it.state = IterationState::Compiling;
  save(it);
  checkpoint();  // generated -> compiling
  evaluateIteration(it, plan.constraints, true);
  return;
}

void AgentLoop::Impl::runEdit(Candidate candidate, std::optional<int> parentId) {
  Iteration it;
  {
    std::lock_guard lock(mutex);
    if (!parentId) parentId = head;
  }
  if (parentId && !store.iteration(*parentId)) parentId.reset();
  it.parentId = parentId;
  it.origin = Origin::Human;
  candidate.origin = Origin::Human;
  it.candidate = std::move(candidate);
  it.state = IterationState::Compiling;
  it.notes = "edited by the engineer";
  reserveIteration(it);
  emit(agent_event::IterationStarted{it});
  setState(AgentState::Compiling, it.id, "evaluating the engineer's edit");
  evaluateIteration(it, store.session().constraints, false);
  std::lock_guard lock(mutex);
  // The engineer's edit is what the agent continues from.
  head = it.id;
  lastAttempt.reset();
  roundsWithoutImprovement = 0;
}

void AgentLoop::Impl::keepProfileArtifacts(int id, const fs::path& dir, ProfileReport& profile) {
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
    store.writeArtifact(id, name, content.str());
    profile.artifacts[label] = name;
  }
}

void AgentLoop::Impl::evaluateIteration(Iteration& it, const std::vector<Constraint>& constraints,
                                        bool boundaries) {
  const int id = it.id;
  // Pinned constraints first: a breach is rejected without compiling or running anything.
  auto violations = checkConstraints(it.candidate, constraints);
  if (!violations.empty()) {
    it.diagnostics.insert(it.diagnostics.end(), violations.begin(), violations.end());
    it.verdict = Verdict::Rejected;
    it.state = IterationState::Done;
    save(it);
    emit(agent_event::DiagnosticsReported{id, violations});
    emit(agent_event::IterationFinished{it});
    return;
  }
  setState(AgentState::Compiling, id);
  EvaluationContext ctx;
  ctx.workDir = options.workRoot / ("iteration-" + SessionStore::iterationFolderName(id));
  ctx.cacheDir = options.cacheDir;
  // The work folder (sources, binary, every case's files: 30-200 MB) goes when this function returns,
  // however it returns; what the session keeps is copied into it before then.
  TempWorkDir iterationWork(ctx.workDir, options.keepWork);
  ctx.seed = options.seed;
  ctx.onPhase = [&](EvalPhase phase) {
    if (stopRequested) throw AgentStopRequested{};
    if (phase == EvalPhase::Running) {
      if (boundaries) checkpoint();  // compiled -> running
      it.state = IterationState::Running;
      save(it);
      setState(AgentState::Running, id);
    }
  };
  EvaluationOutcome out;
  try {
    std::error_code ec;
    fs::remove_all(ctx.workDir, ec);
    out = evaluator->evaluate(task, it.candidate, ctx);
  } catch (const AgentStopRequested&) {
    it.state = IterationState::Stopped;
    save(it);
    emit(agent_event::IterationFinished{it});
    throw;
  } catch (const std::exception& e) {
    it.state = IterationState::Failed;
    it.diagnostics.push_back(
        agentDiagnostic("evaluation-failed", std::string("evaluation failed: ") + e.what()));
    save(it);
    emit(agent_event::Error{
        id, std::string("evaluating iteration ") + std::to_string(id) + " failed: " + e.what()});
    emit(agent_event::IterationFinished{it});
    return;
  }
  it.compile = out.compile;
  it.run = out.run;
  it.diagnostics.insert(it.diagnostics.end(), out.diagnostics.begin(), out.diagnostics.end());
  // Its paths name the work folder, which is removed at the end of this evaluation.
  if (!options.keepWork) out.report["work_dir_removed"] = true;
  store.writeArtifact(id, "eval.json", out.report.dump(2));
  if (it.compile && !it.compile->log.empty()) store.writeArtifact(id, "compile.log", it.compile->log);

  // Verifying: the verifier's account, persisted, then every finding announced.
  setState(AgentState::Verifying, id);
  it.verify = out.verify;
  it.state = IterationState::Verifying;
  save(it);
  const auto all = everyDiagnostic(it);
  if (!all.empty()) emit(agent_event::DiagnosticsReported{id, all});
  if (boundaries) checkpoint();  // verified -> profiling

  // Profiling: the cost model's (or msprof's) report, and the fixed blockDim constraint.
  setState(AgentState::Profiling, id);
  it.profile = out.profile;
  if (it.profile) keepProfileArtifacts(id, out.profileArtifactsDir, *it.profile);
  it.state = IterationState::Profiling;
  Verdict verdict = out.verdict;
  for (const auto& c : constraints) {
    if (c.kind != ConstraintKind::FixedParameter || (c.parameter != "blockDim" && c.parameter != "block_dim"))
      continue;
    const nlohmann::json& rep = out.report;
    if (!rep.contains("runs")) continue;
    for (const auto& r : rep["runs"]) {
      const int bd = r.value("block_dim", 0);
      if (bd != 0 && !parameterValueMatches(std::to_string(bd), c.value)) {
        Diagnostic d = agentDiagnostic(
            std::string(category::PolicyViolation),
            "fixed parameter blockDim must be " + c.value.dump() + " (constraint " + std::to_string(c.id) +
                "), kwb_tiling chose " + std::to_string(bd) + " for case " + r.value("case", std::string()));
        d.source = "policy";
        it.diagnostics.push_back(d);
        emit(agent_event::DiagnosticsReported{id, {d}});
        verdict = Verdict::Rejected;
        break;
      }
    }
  }
  save(it);
  if (it.profile) emit(agent_event::ProfileReady{id, *it.profile});

  it.verdict = verdict;
  it.state = IterationState::Done;
  // What the next prompt is told about this iteration (before any budget trimming), for the
  // conversation panel and for people reading the session folder.
  store.writeArtifact(id, "feedback.md", describeFeedback(it, options.candidateFileName));
  save(it);
  emit(agent_event::IterationFinished{it});
}

}  // namespace kwb
