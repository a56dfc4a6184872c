// SPDX-License-Identifier: MIT
#pragma once
// One step of the loop: a candidate (from the agent, a human edit or a replay), what evaluating it
// produced, and how it came about. Iterations form a tree through parentId: a rollback starts a new
// branch from an earlier iteration and every branch is kept.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/Candidate.h"
#include "core/model/CompileResult.h"
#include "core/model/Diagnostic.h"
#include "core/model/ProfileReport.h"
#include "core/model/RunResult.h"
#include "core/model/Verdict.h"
#include "core/model/VerifyReport.h"

namespace kwb {

class JsonReader;

// Iteration folders are named with at least four digits (iterations/0042); ids stay below this.
inline constexpr int kMaxIterationId = 999'999;

// Where an iteration is in generate -> compile -> run -> verify -> profile. Done carries a verdict;
// Stopped means the engineer stopped it mid-way, Failed that the workbench itself failed (LLM
// unreachable, disk full), as opposed to the candidate failing, which is Done with a verdict.
enum class IterationState {
  Pending,
  Generating,
  Compiling,
  Running,
  Verifying,
  Profiling,
  Done,
  Stopped,
  Failed
};

std::string_view iterationStateName(IterationState s);
bool isFinal(IterationState s);

struct LlmUsage {
  std::int64_t promptTokens = 0;
  std::int64_t completionTokens = 0;
  std::string model;
  std::string provider;  // "openai", "anthropic", "replay"
  double durationMs = 0.0;
  bool operator==(const LlmUsage&) const = default;
};

struct Iteration {
  int id = 0;  // 1, 2, 3, ... unique in a session; a parent always has a smaller id
  std::optional<int> parentId;
  Origin origin = Origin::Agent;
  IterationState state = IterationState::Pending;
  std::optional<Verdict> verdict;
  std::string createdAt;  // ISO-8601 UTC
  std::string updatedAt;
  std::optional<std::string> finishedAt;
  std::optional<LlmUsage> usage;
  Candidate candidate;
  std::optional<CompileResult> compile;
  std::optional<RunResult> run;
  std::optional<VerifyReport> verify;
  std::optional<ProfileReport> profile;
  std::vector<Diagnostic> diagnostics;  // findings outside compile/run/verify: policy, parse, agent
  std::string hint;                     // the engineer's hint that went into this iteration's prompt
  std::string notes;                    // the agent's explanation or a reviewer's note
  // The engineer rolled back to the parent just before this round: the branch is theirs, not the
  // agent building on its best candidate again (the timeline marks the two differently).
  bool afterRollback = false;

  bool operator==(const Iteration&) const = default;
};

void read(const JsonReader& r, LlmUsage& u);
// Accepts an optional "schema_version" (iteration.json carries one) and refuses newer versions.
void read(const JsonReader& r, Iteration& it);
void to_json(nlohmann::json& j, const LlmUsage& u);
void to_json(nlohmann::json& j, const Iteration& it);
void from_json(const nlohmann::json& j, LlmUsage& u);
void from_json(const nlohmann::json& j, Iteration& it);

}  // namespace kwb
