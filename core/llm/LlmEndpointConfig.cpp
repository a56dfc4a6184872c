#include "core/llm/LlmEndpointConfig.h"

#include <charconv>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace kwb {

namespace {

std::string stripTrailingSlashes(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

bool endsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Path part of an absolute URL ("" when there is none); tolerant of URLs without a scheme.
std::string urlPath(const std::string& url) {
  std::size_t start = url.find("://");
  start = start == std::string::npos ? 0 : start + 3;
  const std::size_t slash = url.find('/', start);
  return slash == std::string::npos ? std::string() : url.substr(slash);
}

template <typename T>
void readNumber(const EnvLookup& env, const char* name, T& target, T minValue, LlmEndpointConfig& c,
                double scale = 1) {
  auto v = env(name);
  if (!v) return;
  double parsed = 0;
  const char* first = v->data();
  const char* last = v->data() + v->size();
  auto [ptr, ec] = std::from_chars(first, last, parsed);
  if (ec != std::errc() || ptr != last || parsed * scale < static_cast<double>(minValue)) {
    c.warnings.push_back(std::string(name) + "=\"" + *v + "\" is not a usable number; keeping the default");
    return;
  }
  target = static_cast<T>(parsed * scale);
}

template <typename T>
void readField(const nlohmann::json& j, const char* name, T& target) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) return;
  try {
    target = it->get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument(std::string("llm.") + name + " has the wrong type (" + it->type_name() + ")");
  }
}

}  // namespace

LlmEndpointConfig llmEndpointFromEnvironment(const EnvLookup& env) {
  LlmEndpointConfig c;
  c.provider = env("KWB_LLM_PROVIDER").value_or("");
  c.baseUrl = env("KWB_LLM_BASE_URL").value_or("");
  c.model = env("KWB_LLM_MODEL").value_or("");
  c.replayFile = env("KWB_LLM_REPLAY_FILE").value_or("");
  if (c.provider.empty() && !c.baseUrl.empty()) c.provider = "openai";
  if (c.baseUrl.empty() && c.provider == "anthropic") c.baseUrl = "https://api.anthropic.com";
  const std::string defaultKeyEnv = c.provider == "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  c.apiKeyEnv = env("KWB_LLM_API_KEY_ENV").value_or(defaultKeyEnv);
  c.apiKeyPresent = env(c.apiKeyEnv).has_value();
  readNumber(env, "KWB_LLM_TEMPERATURE", c.temperature, 0.0, c);
  readNumber(env, "KWB_LLM_MAX_TOKENS", c.maxTokens, 1, c);
  readNumber(env, "KWB_LLM_TIMEOUT_S", c.requestTimeoutMs, 1, c, 1000);
  readNumber(env, "KWB_LLM_IDLE_TIMEOUT_S", c.idleTimeoutMs, 1, c, 1000);
  readNumber(env, "KWB_LLM_MAX_RETRIES", c.maxRetries, 0, c);
  return c;
}

nlohmann::json toJson(const LlmEndpointConfig& c) {
  return {{"provider", c.provider},
          {"base_url", c.baseUrl},
          {"model", c.model},
          {"api_key_env", c.apiKeyEnv},
          {"replay_file", c.replayFile},
          {"temperature", c.temperature},
          {"max_tokens", c.maxTokens},
          {"request_timeout_ms", c.requestTimeoutMs},
          {"connect_timeout_ms", c.connectTimeoutMs},
          {"idle_timeout_ms", c.idleTimeoutMs},
          {"max_retries", c.maxRetries},
          {"backoff_base_ms", c.backoffBaseMs},
          {"backoff_max_ms", c.backoffMaxMs},
          {"retry_after_max_ms", c.retryAfterMaxMs},
          {"restart_after_partial_stream", c.restartAfterPartialStream}};
}

LlmEndpointConfig llmEndpointFromJson(const nlohmann::json& j) {
  if (!j.is_object())
    throw std::invalid_argument(std::string("llm settings must be a JSON object, not ") + j.type_name());
  LlmEndpointConfig c;
  readField(j, "provider", c.provider);
  readField(j, "base_url", c.baseUrl);
  readField(j, "model", c.model);
  readField(j, "api_key_env", c.apiKeyEnv);
  readField(j, "replay_file", c.replayFile);
  readField(j, "temperature", c.temperature);
  readField(j, "max_tokens", c.maxTokens);
  readField(j, "request_timeout_ms", c.requestTimeoutMs);
  readField(j, "connect_timeout_ms", c.connectTimeoutMs);
  readField(j, "idle_timeout_ms", c.idleTimeoutMs);
  readField(j, "max_retries", c.maxRetries);
  readField(j, "backoff_base_ms", c.backoffBaseMs);
  readField(j, "backoff_max_ms", c.backoffMaxMs);
  readField(j, "retry_after_max_ms", c.retryAfterMaxMs);
  readField(j, "restart_after_partial_stream", c.restartAfterPartialStream);
  if (j.contains("api_key") || j.contains("apiKey"))
    throw std::invalid_argument(
        "llm settings must not contain an API key; name its environment variable in api_key_env");
  return c;
}

std::string openAiChatCompletionsUrl(const std::string& baseUrl) {
  const std::string base = stripTrailingSlashes(baseUrl);
  if (endsWith(base, "/chat/completions")) return base;
  if (urlPath(base).empty()) return base + "/v1/chat/completions";
  return base + "/chat/completions";
}

std::string anthropicMessagesUrl(const std::string& baseUrl) {
  const std::string base = stripTrailingSlashes(baseUrl);
  if (endsWith(base, "/v1/messages")) return base;
  if (endsWith(base, "/v1")) return base + "/messages";
  return base + "/v1/messages";
}

}  // namespace kwb
