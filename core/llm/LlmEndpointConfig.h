#pragma once
// Where the agent's LLM lives. The API key itself is never stored here: only the NAME of the
// environment variable that holds it, so sessions, logs and `kwb doctor` can never leak it.

#include <optional>
#include <string>

#include "core/toolchain/CannInstallation.h"

namespace kwb {

struct LlmEndpointConfig {
  std::string provider;     // "openai" (OpenAI-compatible chat completions), "anthropic", "replay"
  std::string baseUrl;
  std::string model;
  std::string apiKeyEnv;    // name of the environment variable holding the key
  bool apiKeyPresent = false;
  bool configured() const { return !provider.empty() && (provider == "replay" || !baseUrl.empty()); }
};

// Reads KWB_LLM_PROVIDER, KWB_LLM_BASE_URL, KWB_LLM_MODEL and KWB_LLM_API_KEY_ENV (default
// OPENAI_API_KEY or ANTHROPIC_API_KEY by provider) and whether that variable is set.
LlmEndpointConfig llmEndpointFromEnvironment(const EnvLookup& env = processEnvironment());

}  // namespace kwb
