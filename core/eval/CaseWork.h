// SPDX-License-Identifier: MIT
#pragma once
// What one verification case needs before the evaluator can judge it, done apart from the evaluator's
// own thread so that cases can run side by side (OrderedWorkers.h): its inputs (generated or from the
// trusted case cache), its folders, the sandboxed run, and, when the run succeeded, the reference
// outputs (cached, or from the reference program on the inputs from memory). Everything it touches
// is the case's own or read-only; what the evaluator reports is decided on its thread, in case order.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/eval/CaseDataCache.h"
#include "core/model/PhaseTimings.h"
#include "core/model/Task.h"
#include "core/toolchain/Backend.h"
#include "core/verify/ReferenceRunner.h"
#include "core/verify/Verification.h"

namespace kwb {

struct CaseWorkContext {
  const Task& task;
  Backend& backend;  // its run() must be safe to call from several threads (runsCasesConcurrently)
  std::filesystem::path workDir;  // absolute; the case folder is cases/<name> under it
  std::uint64_t seed = 0;
  const CaseDataCache& caseData;
  const verify::ReferenceRunner& refRunner;
  const verify::ReferenceBuild& refBuild;
  // A large case's steps as progress lines ("case huge: inputs 40 %"); called from the case's worker
  // thread, so it must be safe to call from several threads. Optional.
  std::function<void(const std::string&)> progress;
};

// clang-tidy flags the implicit noexcept move constructor: it cannot prove nlohmann::json's noexcept
// move (inside CaseRunResult) non-throwing.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct CaseWork {
  verify::PreparedCase prepared;
  CaseFiles files;
  CaseRunResult run;
  // The reference's outputs; set when the run succeeded and the reference ran (or was cached).
  std::optional<std::vector<std::vector<double>>> expected;
  std::string referenceError;    // the reference failed (the evaluation stops with it)
  PhaseTimings inputsTiming;     // "inputs"
  PhaseTimings runTimings;       // the backend's phases, named after the case
  PhaseTimings referenceTiming;  // "reference" (empty when it did not run)
  std::vector<std::string> cacheWarnings;
};

// True when the run ended well enough to be verified (no failure, no timeout finding).
bool caseRunSucceeded(const CaseRunResult& run);

CaseWork runCaseWork(const CaseWorkContext& context, const VerificationCase& vc);

}  // namespace kwb
