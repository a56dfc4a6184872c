// SPDX-License-Identifier: MIT
#pragma once
// What the agent loop tells its observers (the CLI's progress printer, the GUI's adapter). Events are
// delivered on the loop's thread; observers must return quickly and never block (the GUI adapter only
// queues them onto the GUI thread).

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/model/Diagnostic.h"
#include "core/model/Iteration.h"
#include "core/model/ProfileReport.h"

namespace kwb {

// How an iteration's LLM failure starts its Error event and, when it ends the loop, the finish reason:
// `kwb run` maps that reason to its own exit code (provider/network failures are not internal errors).
inline constexpr std::string_view kLlmFailurePrefix = "LLM request failed";

enum class AgentState {
  Idle,
  Generating,
  Compiling,
  Running,
  Verifying,
  Profiling,
  Deciding,
  Paused,
  Stopped,
  Finished
};
std::string_view agentStateName(AgentState s);

namespace agent_event {
struct StateChanged {
  AgentState state;
  std::optional<int> iterationId;  // the iteration in flight, if any
  std::string detail;  // "repairing: wrong-answer in tail tile", "optimizing: 1.8x of 2.0x target"
};
struct TokenStreamed {
  int iterationId;
  std::string text;        // the delta, not the whole reply
  bool reasoning = false;  // true for thinking/reasoning deltas
};
struct StreamRestarted {  // the client retried after partial output: discard what was streamed
  int iterationId;
};
struct LlmRetry {  // the LLM request failed in a retryable way and is tried again after `waitMs`
  int iterationId;
  int attempt = 1;  // 1 = the first retry
  long long waitMs = 0;
  std::string reason;  // what failed, and whether partial text was discarded
};
struct IterationStarted {
  Iteration iteration;  // state Generating (agent) or Compiling (human edit / replay)
};
struct IterationUpdated {
  Iteration iteration;  // after each finished step; persisted before this is sent
};
struct IterationFinished {
  Iteration iteration;  // final state and verdict
};
struct DiagnosticsReported {
  int iterationId;
  std::vector<Diagnostic> diagnostics;
};
struct ProfileReady {
  int iterationId;
  ProfileReport profile;
};
struct ConstraintsChanged {};
struct Accepted {
  int iterationId;
  std::string exportDir;  // the exported CANN project
};
struct Error {
  std::optional<int> iterationId;
  std::string message;  // actionable: what failed, where, what to do
};
}  // namespace agent_event

using AgentEvent =
    std::variant<agent_event::StateChanged, agent_event::TokenStreamed, agent_event::StreamRestarted,
                 agent_event::LlmRetry, agent_event::IterationStarted, agent_event::IterationUpdated,
                 agent_event::IterationFinished, agent_event::DiagnosticsReported, agent_event::ProfileReady,
                 agent_event::ConstraintsChanged, agent_event::Accepted, agent_event::Error>;

class AgentObserver {
 public:
  virtual ~AgentObserver() = default;
  virtual void onAgentEvent(const AgentEvent& event) = 0;
};

}  // namespace kwb
