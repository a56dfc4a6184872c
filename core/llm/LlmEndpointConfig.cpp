#include "core/llm/LlmEndpointConfig.h"

namespace kwb {

LlmEndpointConfig llmEndpointFromEnvironment(const EnvLookup& env) {
  LlmEndpointConfig c;
  c.provider = env("KWB_LLM_PROVIDER").value_or("");
  c.baseUrl = env("KWB_LLM_BASE_URL").value_or("");
  c.model = env("KWB_LLM_MODEL").value_or("");
  if (c.provider.empty() && !c.baseUrl.empty()) c.provider = "openai";
  if (c.baseUrl.empty() && c.provider == "anthropic") c.baseUrl = "https://api.anthropic.com";
  const std::string defaultKeyEnv = c.provider == "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  c.apiKeyEnv = env("KWB_LLM_API_KEY_ENV").value_or(defaultKeyEnv);
  c.apiKeyPresent = env(c.apiKeyEnv).has_value();
  return c;
}

}  // namespace kwb
