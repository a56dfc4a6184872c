// SPDX-License-Identifier: MIT
#pragma once
// The one interface the agent loop, the CLI and the GUI use to talk to a model. complete() blocks the
// calling thread (run it on a worker thread), streams deltas to the observer on that same thread as
// they arrive, and returns when the reply is complete, failed, or the cancel flag was raised.
// It never throws for anything a server or the network can do: failures come back as LlmResponse::error.
//
// Thread-safety: the HTTP clients keep no per-call state, so one instance may serve several threads at
// once (best-of-N); ReplayClient serialises access to its cursor.

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/llm/LlmEndpointConfig.h"
#include "core/llm/LlmTypes.h"
#include "core/llm/RetryPolicy.h"

namespace kwb {

class LlmClient {
 public:
  virtual ~LlmClient() = default;

  virtual LlmResponse complete(const LlmRequest& request, const StreamObserver& observer = {},
                               const std::atomic<bool>* cancel = nullptr) = 0;

  // "openai", "anthropic" or "replay": shown next to every reply so replays are never mistaken for a model.
  virtual std::string provider() const = 0;
  // One line safe to show and log: provider, URL, model and the key's variable name (never its value).
  virtual std::string describe() const = 0;
};

// What a client needs from its surroundings, injectable for tests.
struct LlmClientHooks {
  EnvLookup env;     // where the API key is read at request time; default: process env
  RetryClock clock;  // sleeps, wall clock and jitter for retries; default: real
  std::function<void(std::string_view)> log;  // one redacted line per request/retry/failure; default: none
};

// Builds the client the config names ("openai", "anthropic", "replay"). Throws std::invalid_argument
// with an actionable message for an unknown provider, a missing base URL, or an unreadable replay file.
std::unique_ptr<LlmClient> makeLlmClient(const LlmEndpointConfig& config, LlmClientHooks hooks = {});

}  // namespace kwb
