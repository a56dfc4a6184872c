// SPDX-License-Identifier: MIT
#include "app/kwb/LlmOptions.h"

#include <cstdlib>

namespace kwb::cli {

void addLlmOptions(CLI::App& cmd, LlmOptions& o) {
  cmd.add_option("--provider", o.provider, "openai, anthropic or replay (default: KWB_LLM_PROVIDER)")
      ->check(CLI::IsMember({"openai", "anthropic", "replay"}));
  cmd.add_option("--base-url", o.baseUrl, "LLM endpoint base URL");
  cmd.add_option("--model", o.model, "Model name");
  cmd.add_option("--api-key-env", o.apiKeyEnv, "Name of the environment variable holding the API key");
  cmd.add_option("--replay", o.replay, "Recorded replies to play back (provider replay)");
}

LlmEndpointConfig resolveLlmEndpoint(const LlmOptions& o, std::string& error) {
  LlmEndpointConfig cfg = llmEndpointFromEnvironment();
  if (!o.provider.empty()) cfg.provider = o.provider;
  if (!o.replay.empty()) {
    cfg.provider = o.provider.empty() ? "replay" : cfg.provider;
    cfg.replayFile = o.replay;
  }
  if (!o.baseUrl.empty()) cfg.baseUrl = o.baseUrl;
  if (!o.model.empty()) cfg.model = o.model;
  if (!o.apiKeyEnv.empty()) cfg.apiKeyEnv = o.apiKeyEnv;
  // ProcessSpec's isSecretEnvironmentName reads this variable to know the key's name.
  if (!cfg.apiKeyEnv.empty()) ::setenv("KWB_LLM_API_KEY_ENV", cfg.apiKeyEnv.c_str(), 1);
  if (cfg.provider.empty())
    error =
        "no LLM configured: pass --provider openai|anthropic|replay (with --base-url/--model or --replay), "
        "or set KWB_LLM_PROVIDER and KWB_LLM_BASE_URL";
  else if (cfg.provider == "replay" && cfg.replayFile.empty())
    error = "--provider replay needs --replay FILE";
  return cfg;
}

}  // namespace kwb::cli
