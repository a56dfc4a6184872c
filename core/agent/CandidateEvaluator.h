// SPDX-License-Identifier: MIT
#pragma once
// The agent loop's seam to the evaluation harness: evaluate one candidate and return what the
// iteration records. BackendEvaluator drives core/toolchain's evaluate() on a fresh backend per call
// (backends hold per-evaluation state, so best-of-N workers never share one); tests may substitute
// their own evaluator.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/Candidate.h"
#include "core/model/CompileResult.h"
#include "core/model/Diagnostic.h"
#include "core/model/ProfileReport.h"
#include "core/model/RunResult.h"
#include "core/model/Task.h"
#include "core/model/Verdict.h"
#include "core/model/VerifyReport.h"

namespace kwb {

struct EvalReport;

enum class EvalPhase { Compiling, Running, Verifying, Profiling };

struct EvaluationContext {
  std::filesystem::path workDir;   // scratch for this evaluation
  std::filesystem::path cacheDir;  // shared build cache
  std::optional<std::uint64_t> seed;
  // Called on the evaluating thread when a phase begins. It may throw to abandon the evaluation (the
  // loop's stop request does); the evaluator lets the exception through.
  std::function<void(EvalPhase)> onPhase;
};

// clang-tidy flags the implicit noexcept move constructor: it cannot prove nlohmann::json's noexcept
// move (its invariant checks) non-throwing.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct EvaluationOutcome {
  Verdict verdict = Verdict::Rejected;
  std::optional<CompileResult> compile;
  std::optional<RunResult> run;        // the failing case's run, else the last case's
  std::optional<VerifyReport> verify;  // absent when nothing was verified
  std::optional<ProfileReport> profile;
  std::vector<Diagnostic> diagnostics;  // findings not held by compile/run/verify (policy, preparation)
  std::string summary;                  // one line
  std::uint64_t seed = 0;
  nlohmann::json report;  // the full evaluation report (saved as an artifact)
  // Where the profiled case's trace.json and msprof-style CSVs are (empty: none).
  std::filesystem::path profileArtifactsDir;
};

class CandidateEvaluator {
 public:
  virtual ~CandidateEvaluator() = default;
  // Must be safe to call from several threads at once (best-of-N).
  virtual EvaluationOutcome evaluate(const Task& task, const Candidate& candidate,
                                     const EvaluationContext& ctx) = 0;
  virtual std::string backendName() const = 0;
};

class BackendEvaluator : public CandidateEvaluator {
 public:
  // Throws std::invalid_argument for an unknown backend name.
  // `caseTimeout` bounds each sandboxed case run (the backend's default when unset).
  BackendEvaluator(std::string backend, std::string soc,
                   std::optional<std::chrono::milliseconds> caseTimeout = {});
  EvaluationOutcome evaluate(const Task& task, const Candidate& candidate,
                             const EvaluationContext& ctx) override;
  std::string backendName() const override { return backend_; }

 private:
  std::string backend_;
  std::string soc_;
  std::optional<std::chrono::milliseconds> caseTimeout_;
};

// The emulator/msprof profile JSON as the model's ProfileReport (null/non-object -> nullopt).
std::optional<ProfileReport> profileFromJson(const nlohmann::json& j);

// Splits an evaluation report into the parts an Iteration records.
EvaluationOutcome outcomeFromReport(const EvalReport& report);

}  // namespace kwb
