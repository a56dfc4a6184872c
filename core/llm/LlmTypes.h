// SPDX-License-Identifier: MIT
#pragma once
// The vocabulary every LLM client speaks: what is asked (LlmRequest), what streams back (StreamObserver),
// and what the call produced (LlmResponse with typed LlmError). Plain data, JSON-serialisable, and free
// of secrets: nothing here ever holds an API key or an Authorization header.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kwb {

enum class LlmRole { User, Assistant };

std::string_view toString(LlmRole r);
std::optional<LlmRole> parseLlmRole(std::string_view text);

struct LlmMessage {
  LlmRole role = LlmRole::User;
  std::string content;
};

struct LlmRequest {
  std::string system;                 // system prompt; empty = none
  std::vector<LlmMessage> messages;   // conversation, oldest first
  std::string model;                  // empty = the client's configured model
  std::optional<double> temperature;  // nullopt = the client's configured temperature
  std::optional<int> maxTokens;       // nullopt = the client's configured limit
};

struct TokenUsage {
  std::int64_t promptTokens = 0;
  std::int64_t completionTokens = 0;
  bool reported = false;  // false when the provider sent no usage (counts are then 0)
  std::int64_t total() const { return promptTokens + completionTokens; }
};

enum class LlmErrorKind {
  None,
  Auth,         // 401/403, or no key while the server wants one: never retried
  RateLimited,  // 429 (retried, honouring Retry-After)
  Server,       // 5xx or a provider "overloaded"/server error event (retried)
  Network,      // could not connect / connection reset before any data (retried)
  Timeout,      // request, connect or idle (stall) timeout
  Cancelled,    // the caller's cancel flag was raised
  BadResponse,  // body or event that is not what the wire format promises (HTML, garbage JSON)
  Truncated,    // stream ended before its end marker ([DONE] / message_stop); partial text kept
  BadRequest,   // other 4xx: unknown model, context too long, malformed request (not retried)
  Config,       // local configuration problem (bad URL, unknown provider, replay exhausted)
};

std::string_view toString(LlmErrorKind k);
std::optional<LlmErrorKind> parseLlmErrorKind(std::string_view text);

struct LlmError {
  LlmErrorKind kind = LlmErrorKind::None;
  std::string message;  // says what went wrong, where (URL), and what to do; never contains the key
  int httpStatus = 0;   // 0 when no HTTP status was received
  explicit operator bool() const { return kind != LlmErrorKind::None; }
};

struct LlmResponse {
  std::string text;          // everything the model wrote (partial when error is Truncated/Timeout/Cancelled)
  std::string reasoning;     // reasoning/thinking deltas when the provider sends them separately
  std::string finishReason;  // provider's own word: "stop", "length", "end_turn", "max_tokens", ...
  TokenUsage usage;
  std::string model;                     // as reported by the provider (falls back to the requested model)
  std::string provider;                  // "openai", "anthropic", "replay"
  std::chrono::milliseconds latency{0};  // whole call, retries and waits included
  std::chrono::milliseconds firstTokenLatency{
      0};                 // start of the successful attempt to its first delta; 0 if none
  std::string requestId;  // provider request id (header or stream id) when known
  int retries = 0;        // attempts made beyond the first
  LlmError error;

  bool ok() const { return error.kind == LlmErrorKind::None; }
  // The model stopped because it hit the token limit ("length" / "max_tokens"): the text is cut.
  bool hitMaxTokens() const;
};

// Receives the stream as it arrives, on the thread that called complete(). Every member is optional.
// Callbacks must be quick (copy the text and return); they must not call back into the client.
struct StreamObserver {
  std::function<void(std::string_view delta)> onText;
  std::function<void(std::string_view delta)> onReasoning;
  // The client is about to retry after deltas of a failed attempt were already delivered: discard
  // everything received so far. Only called when the client's settings allow restarting mid-stream.
  std::function<void(int nextAttempt, const LlmError& why)> onRestart;
  // Informational: attempt `nextAttempt` (1-based retry count) will start after `wait`.
  std::function<void(int nextAttempt, std::chrono::milliseconds wait, const LlmError& why)> onRetry;
};

nlohmann::json toJson(const LlmMessage& m);
nlohmann::json toJson(const LlmRequest& r);
nlohmann::json toJson(const TokenUsage& u);
nlohmann::json toJson(const LlmError& e);
nlohmann::json toJson(const LlmResponse& r);

// Readers throw std::invalid_argument naming the offending field.
LlmRequest llmRequestFromJson(const nlohmann::json& j);
TokenUsage tokenUsageFromJson(const nlohmann::json& j);
LlmResponse llmResponseFromJson(const nlohmann::json& j);

// Stable digest of what a request asks (system prompt + messages, not model or sampling settings), so
// a recording made with one model replays against the same conversation under another. 16 hex chars.
std::string llmRequestDigest(const LlmRequest& r);

}  // namespace kwb
