// SPDX-License-Identifier: MIT
#pragma once
// Where the agent's LLM lives and how to talk to it. The API key itself is never stored here: only the
// NAME of the environment variable that holds it, read at request time, so sessions, logs, transcripts
// and `kwb doctor` can never leak it.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/base/Environment.h"

namespace kwb {

struct LlmEndpointConfig {
  std::string provider;  // "openai" (OpenAI-compatible chat completions), "anthropic", "replay"
  std::string baseUrl;   // see openAiChatCompletionsUrl / anthropicMessagesUrl for the rule
  std::string model;
  std::string apiKeyEnv;       // name of the environment variable holding the key
  bool apiKeyPresent = false;  // observed when the config was read; not serialised
  std::string replayFile;      // provider "replay": recorded responses or a transcript (see ReplayClient)

  double temperature = 0.2;
  int maxTokens = 8192;
  int requestTimeoutMs = 600'000;  // whole request, stream included
  int connectTimeoutMs = 20'000;
  int idleTimeoutMs = 180'000;    // no byte at all for this long aborts (a stalled stream)
  int maxRetries = 4;             // attempts beyond the first, for 429 / 5xx / network / timeout
  int backoffBaseMs = 1'000;      // exponential backoff: base * 2^n, with +-25 % jitter
  int backoffMaxMs = 60'000;      // cap for one backoff wait
  int retryAfterMaxMs = 120'000;  // a Retry-After longer than this is not waited for: rate_limited error
  // Retry a stream cut or stalled after deltas were delivered (when the observer has onRestart, which
  // is then told to discard them): the partial text cannot be resumed, so the reply starts again.
  bool restartAfterPartialStream = true;

  std::vector<std::string> warnings;  // values from the environment that could not be used; not serialised

  bool configured() const { return !provider.empty() && (provider == "replay" || !baseUrl.empty()); }
};

// Reads KWB_LLM_PROVIDER, KWB_LLM_BASE_URL, KWB_LLM_MODEL and KWB_LLM_API_KEY_ENV (default
// OPENAI_API_KEY or ANTHROPIC_API_KEY by provider) and whether that variable is set; optionally
// KWB_LLM_REPLAY_FILE, KWB_LLM_TEMPERATURE (0-2), KWB_LLM_MAX_TOKENS (1-10^7), KWB_LLM_TIMEOUT_S and
// KWB_LLM_IDLE_TIMEOUT_S (1-86400) and KWB_LLM_MAX_RETRIES (0-100). A value that is not a number, not
// whole where it must be, or out of range keeps the default and adds a line to `warnings` naming the
// variable and the problem; so do an unknown provider, a base URL without http(s):// and a key variable
// name that is not a name (a key pasted in its place).
LlmEndpointConfig llmEndpointFromEnvironment(const EnvLookup& env = processEnvironment());

// The KWB_LLM_* variables llmEndpointFromEnvironment reads.
const std::vector<std::string>& llmEnvironmentVariableNames();
// One warning per name in `names` (the environment's variable names) that starts with KWB_LLM_ but is
// not one kwb reads, suggesting the closest known name ("KWB_LLM_MODLE is not a variable kwb reads; did
// you mean KWB_LLM_MODEL?"): a misspelt override is otherwise silently ignored.
std::vector<std::string> unknownLlmEnvironmentVariables(const std::vector<std::string>& names);

// Settings as JSON for sessions: the key's variable NAME only, never its value.
nlohmann::json toJson(const LlmEndpointConfig& c);
// Missing fields keep their defaults; wrong types throw std::invalid_argument naming the field.
LlmEndpointConfig llmEndpointFromJson(const nlohmann::json& j);

// URL rule for OpenAI-compatible servers (trailing slashes ignored):
//   - a base already ending in /chat/completions is used as is;
//   - a base with no path ("https://api.deepseek.com", "http://localhost:11434") gets /v1/chat/completions;
//   - any other path names the API root and gets /chat/completions
//     ("https://api.openai.com/v1", "https://openrouter.ai/api/v1", ".../compatible-mode/v1");
//   - a query or fragment ("?api-version=2024-06-01") stays at the end, after the inserted path.
std::string openAiChatCompletionsUrl(const std::string& baseUrl);
// Anthropic: a base ending in /v1/messages is used as is, one ending in /v1 gets /messages, anything else
// ("https://api.anthropic.com", a gateway prefix) gets /v1/messages; a query stays at the end.
std::string anthropicMessagesUrl(const std::string& baseUrl);

}  // namespace kwb
