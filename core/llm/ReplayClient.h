// SPDX-License-Identifier: MIT
#pragma once
// Plays back recorded replies for lessons, demos and deterministic tests. Every response it returns
// says provider "replay" (and model "replay:<recorded model>") so no UI can mistake it for a live model.
//
// Which entry answers a request: the first unused entry whose request_digest equals the request's
// llmRequestDigest(); when no entry carries a matching digest, the next unused entry in order. Entries
// without a digest only ever play in order. When all are used the reply is a `config` error.
//
// Files it loads: an LlmTranscript (format "kwb-llm-transcript"), or
//   {"responses": [{"text": "...", "reasoning": "...", "usage": {"prompt_tokens": 1, "completion_tokens": 2},
//                   "finish_reason": "stop", "model": "m", "delay_ms": 0, "request_digest": "…"}]}
// or a bare array of such entries.

#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/llm/LlmClient.h"

namespace kwb {

struct ReplayEntry {
  std::optional<std::string> requestDigest;
  std::string text;
  std::string reasoning;
  TokenUsage usage;
  std::string finishReason = "stop";
  std::string model;
  std::chrono::milliseconds delay{0};  // before the first chunk (simulated latency)
  LlmError error;                      // replays a recorded failure (its partial text still streams)
};

// Throws std::invalid_argument naming the entry and field.
std::vector<ReplayEntry> replayEntriesFromJson(const nlohmann::json& j);
// Throws std::runtime_error "PATH: reason".
std::vector<ReplayEntry> loadReplayEntries(const std::filesystem::path& path);

struct ReplayOptions {
  std::size_t chunkChars = 24;              // text is streamed in pieces of about this size
  std::chrono::milliseconds chunkDelay{0};  // pause between pieces (for demos); 0 = as fast as possible
  std::string source = "memory";            // shown by describe(): the file it came from
};

class ReplayClient : public LlmClient {
 public:
  explicit ReplayClient(std::vector<ReplayEntry> entries, ReplayOptions options = {}, RetryClock clock = {});
  static std::unique_ptr<ReplayClient> fromFile(const std::filesystem::path& path, ReplayOptions options = {},
                                                RetryClock clock = {});

  LlmResponse complete(const LlmRequest& request, const StreamObserver& observer = {},
                       const std::atomic<bool>* cancel = nullptr) override;
  std::string provider() const override { return "replay"; }
  std::string describe() const override;

  std::size_t remaining() const;

 private:
  std::optional<ReplayEntry> take(const std::string& digest, std::size_t& index);

  std::vector<ReplayEntry> entries_;
  std::vector<bool> used_;
  ReplayOptions options_;
  RetryClock clock_;
  mutable std::mutex mutex_;
};

}  // namespace kwb
