// SPDX-License-Identifier: MIT
#pragma once
// Evaluates one candidate for one task on one backend: policy checks, prepare, compile, then for every
// verification case fresh inputs (from the recorded seed), poisoned outputs, a sandboxed run, the
// reference, and the verifier. Produces the verdict `kwb eval` prints and the agent reads.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/CompileResult.h"
#include "core/model/Diagnostic.h"
#include "core/model/PhaseTimings.h"
#include "core/model/RunResult.h"
#include "core/model/Task.h"
#include "core/model/Verdict.h"
#include "core/toolchain/Backend.h"
#include "core/verify/Verification.h"

namespace kwb {

// What the evaluation is doing now, announced when it begins (not after it ran).
enum class EvalStage { Policy, Compile, Run, Verify, Profile };
const char* evalStageName(EvalStage s);

struct EvalRequest {
  std::string candidateSource;
  std::string candidateName = "kernel.cpp";  // for diagnostics
  // The candidate's other files (name -> text): headers its primary file includes. They are checked
  // by the same policy (lexically and in the preprocessed stream) and written next to the primary file
  // for the build (docs/candidate-contract.md, "Several files").
  std::map<std::string, std::string> companionFiles;
  std::optional<std::uint64_t> seed;                 // absent: a fresh one (recorded in the report)
  std::filesystem::path workDir;                     // artifacts go here (cases/<name>/...)
  std::filesystem::path cacheDir;                    // build cache shared across evaluations
  std::function<void(const std::string&)> progress;  // one line per step, optional
  // Typed: called when a stage begins, with the case it is about ("" for policy and compile). May
  // throw to abandon the evaluation; the exception is let through.
  std::function<void(EvalStage, const std::string& caseName)> onStage;
  // The static policy (raw text and the preprocessed token stream). Only tests of the layers behind
  // it (sandbox, trusted side) turn it off: a hostile candidate must meet those even if it got past.
  bool policyChecks = true;
  // How many cases run side by side on a backend that allows it (Backend::runsCasesConcurrently);
  // the report is the same whatever the number. 0: one per core, at most 2.
  int caseWorkers = 0;
};

struct CaseRunSummary {
  std::string caseName;
  RunResult run;
  TilingResult tiling;
  std::string dir;         // the case folder; the trusted side's trace.json and CSVs are there
  nlohmann::json profile;  // this case's own profile (null when none)
};

// clang-tidy flags the implicit noexcept move constructor: it cannot prove nlohmann::json's noexcept
// move (its invariant checks) non-throwing.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct EvalReport {
  Verdict verdict = Verdict::Rejected;
  std::string backend;
  std::string soc;
  RanOn ranOn = RanOn::Emulator;
  std::uint64_t seed = 0;
  std::vector<Diagnostic> diagnostics;  // policy, compiler, runtime, verifier: everything, in order
  std::optional<CompileResult> compile;
  std::vector<CaseRunSummary> runs;
  verify::VerifyResult verify;
  nlohmann::json profile;  // every case's profile summed, slowest case's detail (verify::summarizeProfiles)
  std::map<std::string, std::string> artifacts;
  // The case whose profile detail `profile` carries (the slowest), index into runs; -1: none.
  int profiledCase = -1;
  std::string summary;  // one line
  double durationMs = 0.0;
  // Where durationMs went, phase by phase and case by case (kwb eval --timings; docs/benchmarks.md).
  PhaseTimings timings;
};

EvalReport evaluate(const Task& task, Backend& backend, const EvalRequest& request);

void to_json(nlohmann::json& j, const EvalReport& r);

}  // namespace kwb
