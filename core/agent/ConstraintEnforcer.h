// SPDX-License-Identifier: MIT
#pragma once
// The one place the engineer's pinned constraints are enforced, in two steps around the evaluation:
//  - before(): on the candidate's text, before anything compiles: a locked region must still appear
//    verbatim (it may move), a fixed parameter must still be defined with its value (`constexpr ...
//    NAME = v;`, `const ... NAME = v;`, `#define NAME v`, `NAME = v` in an initialiser). A breach
//    rejects the candidate without running it.
//  - after(): on what only a run shows: a fixed blockDim is chosen at run time by kwb_tiling, so it is
//    checked against every case's tiling result in the evaluation report. A breach rejects the
//    candidate after it ran.
// Each breach is a `policy-violation` diagnostic (source "policy") carrying the constraint's id
// (Diagnostic::constraintId), by which the GUI and the feedback link it to the constraint. Text rules
// are advice for the prompt and are not checked. The candidate policy (core/policy) is a different
// thing: the contract every candidate meets, not constraints an engineer pinned.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/Candidate.h"
#include "core/model/Constraint.h"
#include "core/model/Diagnostic.h"

namespace kwb {

class ConstraintEnforcer {
 public:
  explicit ConstraintEnforcer(std::vector<Constraint> constraints) : constraints_(std::move(constraints)) {}
  std::vector<Diagnostic> before(const Candidate& candidate) const;
  // `evalReport`: the evaluation report (EvaluationOutcome::report), whose "runs" carry each case's
  // "block_dim" and "case".
  std::vector<Diagnostic> after(const nlohmann::json& evalReport) const;

 private:
  std::vector<Constraint> constraints_;
};

// True for the parameter names after() checks instead of before() (blockDim is chosen at run time).
bool isRunTimeParameter(const std::string& name);

// Values the source assigns to `name` in the forms above, in source order, with their 1-based lines.
struct ParameterDefinition {
  int line = 0;
  std::string value;  // as written, trimmed ("2", "8192", "128 * 64", "2.0f")
};
std::vector<ParameterDefinition> findParameterDefinitions(const std::string& source, const std::string& name);

// True when the written value means the pinned JSON scalar: numbers compare numerically (suffixes
// u/U/l/L/f/F ignored), strings and bools textually.
bool parameterValueMatches(const std::string& written, const nlohmann::json& pinned);

}  // namespace kwb
