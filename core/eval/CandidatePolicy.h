// SPDX-License-Identifier: MIT
#pragma once
// The evaluation's first step: the static policy over the candidate's files, lexically and on the
// sandboxed preprocessor's token stream (docs/candidate-contract.md), for the plain and the
// operator-project forms. A clean verdict is remembered in the trusted evaluation cache under a key
// that covers everything it depends on, so evaluating the same candidate again skips the
// preprocessor (PolicyVerdictCache.h; docs/architecture.md, "Evaluation caches").

#include <filesystem>
#include <string>
#include <vector>

#include "core/eval/Evaluator.h"
#include "core/model/Diagnostic.h"
#include "core/model/Task.h"
#include "core/toolchain/Backend.h"

namespace kwb {

struct CandidatePolicyOutcome {
  // Policy violations, or the preprocessor's own errors (no policy-violation among them then).
  std::vector<Diagnostic> problems;
  // The operator-project form was recognised but is malformed (a compile error, not a violation).
  std::vector<Diagnostic> formProblems;
  bool fromCache = false;             // a clean verdict found in the cache: nothing was run
  std::vector<std::string> warnings;  // a cache entry or folder discarded
};

// `cacheDir`: the evaluation cache (empty: no verdict is looked up or kept).
CandidatePolicyOutcome checkCandidateForEvaluation(const Task& task, const Backend& backend,
                                                   const EvalRequest& request,
                                                   const std::filesystem::path& cacheDir);

}  // namespace kwb
