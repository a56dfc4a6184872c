// SPDX-License-Identifier: MIT
#pragma once
// The recording format for what was said to a model and what came back, for sessions to persist and
// for ReplayClient to play back. It holds the request (system prompt, messages, model, sampling), the
// provider and endpoint URL, the response (text, reasoning, usage, timing, error) — and by construction
// never an API key or a header: clients redact keys from error messages before they get here.
//
//   {"format": "kwb-llm-transcript", "version": 1,
//    "exchanges": [{"request_digest": "…", "provider": "openai", "endpoint": "https://…",
//                   "started_at": "2025-01-31T12:00:00Z", "request": {…}, "response": {…}}]}

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/llm/LlmClient.h"

namespace kwb {

inline constexpr const char* kLlmTranscriptFormat = "kwb-llm-transcript";

struct LlmExchange {
  std::string requestDigest;  // llmRequestDigest(request)
  std::string provider;
  std::string endpoint;   // what the client described; no key
  std::string startedAt;  // UTC, ISO 8601
  LlmRequest request;
  LlmResponse response;
};

nlohmann::json toJson(const LlmExchange& e);
LlmExchange llmExchangeFromJson(const nlohmann::json& j);  // throws std::invalid_argument naming the field

struct LlmTranscript {
  std::vector<LlmExchange> exchanges;

  nlohmann::json toJson() const;
  static LlmTranscript fromJson(const nlohmann::json& j);
  // Writes to a temporary file next to `path` and renames it over, so a crash never leaves half a file.
  void save(const std::filesystem::path& path) const;
  // Throws std::runtime_error "PATH: reason" when the file is missing or malformed.
  static LlmTranscript load(const std::filesystem::path& path);
};

// Wraps any client and records every exchange (successful or not) into a transcript.
class RecordingClient : public LlmClient {
 public:
  explicit RecordingClient(std::shared_ptr<LlmClient> inner);

  LlmResponse complete(const LlmRequest& request, const StreamObserver& observer,
                       const std::atomic<bool>* cancel) override;
  std::string provider() const override { return inner_->provider(); }
  std::string describe() const override { return inner_->describe(); }

  LlmTranscript transcript() const;  // a snapshot

 private:
  std::shared_ptr<LlmClient> inner_;
  mutable std::mutex mutex_;
  LlmTranscript transcript_;
};

}  // namespace kwb
