// SPDX-License-Identifier: MIT
#pragma once
// What OpenAI-compatible and Anthropic clients share: the retry loop (Retry-After, backoff, what is and
// is not retried), the streaming plumbing (SSE or whole-JSON bodies), error classification with
// actionable messages, timing, and key redaction. Subclasses only describe their wire format.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/llm/LlmClient.h"
#include "core/llm/SseParser.h"

namespace kwb {

// Per-attempt state a wire format fills in while the body streams.
class StreamState {
 public:
  explicit StreamState(const StreamObserver& observer) : observer_(observer) {}

  void emitText(std::string_view delta);
  void emitReasoning(std::string_view delta);

  std::string text, reasoning, finishReason, model, requestId;
  TokenUsage usage;
  bool done = false;  // the end marker ([DONE] / message_stop) arrived
  LlmError error;     // an error reported inside the stream or an unparseable event
  bool errorRetryable = false;
  bool delivered() const { return delivered_; }
  std::optional<std::chrono::steady_clock::time_point> firstDelta;

 private:
  const StreamObserver& observer_;
  bool delivered_ = false;
};

class HttpLlmClient : public LlmClient {
 public:
  HttpLlmClient(LlmEndpointConfig config, LlmClientHooks hooks);

  LlmResponse complete(const LlmRequest& request, const StreamObserver& observer,
                       const std::atomic<bool>* cancel) override;
  std::string describe() const override;
  const LlmEndpointConfig& config() const { return config_; }
  virtual std::string endpointUrl() const = 0;
  // endpointUrl() as shown in messages, logs and transcripts: userinfo and key-like query parameters
  // (key=, api-key=, token=, ...) removed (redactUrl).
  std::string displayUrl() const;

  // Message out of a JSON error body: {"error":{"message":..}}, {"type":"error","error":{..}},
  // {"error":"..."}, {"message":..}, {"detail":..}. Empty when none is recognised.
  static std::string errorMessageFromJson(const nlohmann::json& j);
  // Provider error type/code ("insufficient_quota", "overloaded_error", ...), empty when none.
  static std::string errorCodeFromJson(const nlohmann::json& j);
  // One event's JSON; data that is not UTF-8 is read with U+FFFD in place of the bad bytes. Discarded
  // (is_discarded()) when it is not JSON.
  static nlohmann::json parseEventJson(std::string_view data);
  // usage[field] as a token count: nullopt when absent; a value that is not a non-negative number
  // sets state.error (a protocol error naming the field) and returns nullopt.
  static std::optional<std::int64_t> tokenCount(const nlohmann::json& usage, const char* field,
                                                const std::string& where, StreamState& state);

 protected:
  virtual std::vector<std::pair<std::string, std::string>> headers(const std::string& apiKey) const = 0;
  virtual nlohmann::json requestBody(const LlmRequest& r, const std::string& model, double temperature,
                                     int maxTokens) const = 0;
  // One SSE event. Set state.done at the end marker; set state.error to stop the stream.
  virtual void onEvent(const SseEvent& e, StreamState& state) const = 0;
  // A complete (non-streamed) JSON reply; returns false when the body is not this format's reply.
  virtual bool onJsonBody(const nlohmann::json& body, StreamState& state) const = 0;
  // Header carrying the provider's request id.
  virtual std::string requestIdHeader() const = 0;
  // Name of the end marker for messages ("[DONE]", "message_stop").
  virtual std::string endMarker() const = 0;

  LlmEndpointConfig config_;
  LlmClientHooks hooks_;

 private:
  struct Attempt;
  Attempt runAttempt(const LlmRequest& request, const std::string& apiKey, const StreamObserver& observer,
                     const std::atomic<bool>* cancel) const;
  void log(const std::string& line, const std::string& apiKey) const;
};

}  // namespace kwb
