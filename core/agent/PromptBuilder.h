// SPDX-License-Identifier: MIT
#pragma once
// Builds what the agent sends to the model, as a pure function of its inputs (no I/O: the texts come
// from KnowledgePack). The system prompt holds the role, the candidate contract (verbatim), the Ascend C
// knowledge pack and the reply format. The user message holds, most actionable first: what to do now,
// the pinned constraints, the engineer's hint, the feedback on the previous candidate (diagnostics with
// source excerpts, the verifier's mismatch explanation, the profile summary), the previous candidate,
// then the task. Everything is trimmed to a token budget (about 4 characters per token): optional
// sections go first, then long sections are cut, never the constraints, the hint or the instruction.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/llm/LlmTypes.h"
#include "core/model/Constraint.h"
#include "core/model/Iteration.h"
#include "core/model/Task.h"

namespace kwb {

struct KnowledgeDoc {
  std::string name;  // file name, e.g. "20-api-semantics.md"
  std::string text;
};

// What the system prompt is made of; loaded once from disk (KnowledgePack.h).
struct PromptResources {
  std::string contract;                 // docs/candidate-contract.md, verbatim
  std::vector<KnowledgeDoc> knowledge;  // resources/knowledge/*.md in name order
};

enum class PromptMode {
  Initial,   // no candidate yet: write one
  Repair,    // the previous candidate failed: fix it
  Optimize,  // the previous candidate passes: make it faster, keep it correct
};
std::string_view promptModeName(PromptMode m);  // "initial", "repair", "optimize"

struct PromptBudget {
  int systemTokens = 12000;
  int userTokens = 12000;
};

// ~4 characters per token, rounded up.
int estimateTokens(std::string_view text);

struct PromptInput {
  PromptMode mode = PromptMode::Initial;
  const Task* task = nullptr;  // required
  std::string taskReadme;      // README.md of the task, may be empty
  std::vector<Constraint> constraints;
  std::string hint;  // the engineer's queued hint, may be empty
  // Repair: the failing iteration. Optimize: the best passing iteration (its profile is summarised).
  const Iteration* previous = nullptr;
  // Optimize: the latest attempt when it failed or was slower (its feedback is summarised too).
  const Iteration* lastAttempt = nullptr;
  std::optional<double> baselineUs;  // what speedups are measured against
  std::optional<double> targetSpeedup;
  std::string candidateFileName = "kernel.cpp";
  PromptBudget budget;
};

struct BuiltPrompt {
  LlmRequest request;                 // system + one user message
  std::vector<std::string> sections;  // titles of the user-message sections kept, in order
  std::vector<std::string> trimmed;   // what was cut or dropped to fit the budget ("task README dropped")
  int systemTokens = 0;               // estimates
  int userTokens = 0;
};

// The system prompt alone (role, contract, knowledge, reply format), trimmed to budget.systemTokens by
// dropping knowledge documents from the end.
std::string buildSystemPrompt(const PromptResources& resources, int budgetTokens,
                              std::vector<std::string>* trimmed = nullptr);

// The feedback on one evaluated iteration, most actionable first, as markdown: errors grouped and
// counted with source excerpts from the candidate, the verifier's explanation per failing output, the
// profile summary. `maxDiagnostics` bounds the listed diagnostic groups.
std::string describeFeedback(const Iteration& it, const std::string& candidateFileName,
                             int maxDiagnostics = 8);

// "bound mte2; pipes: mte2 92%, vector 31%, mte3 30%; 41.2 us, floor 12.0 us (3.4x above the roofline)".
std::string describeProfile(const ProfileReport& p, std::optional<double> baselineUs = std::nullopt);

// Lines [line-radius, line+radius] of `source` numbered, the line itself marked with ">>".
std::string sourceExcerpt(std::string_view source, int line, int radius = 2);

BuiltPrompt buildPrompt(const PromptResources& resources, const PromptInput& input);

}  // namespace kwb
