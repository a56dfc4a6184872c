#pragma once
// Enforces the engineer's pinned constraints on a candidate before it is compiled: a locked region must
// still appear verbatim (it may move), a fixed parameter must still be defined with its value
// (`constexpr ... NAME = v;`, `const ... NAME = v;`, `#define NAME v`, `NAME = v` in an initialiser).
// A breach is a `policy-violation` diagnostic (source "policy") at the line concerned; the loop rejects
// the candidate without running it. Text rules are advice for the prompt and are not checked here.

#include <string>
#include <vector>

#include "core/model/Candidate.h"
#include "core/model/Constraint.h"
#include "core/model/Diagnostic.h"

namespace kwb {

std::vector<Diagnostic> checkConstraints(const Candidate& candidate,
                                         const std::vector<Constraint>& constraints);

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
