// SPDX-License-Identifier: MIT
#include "core/llm/LlmEndpointConfig.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "core/llm/Redaction.h"
#include "core/model/Session.h"
#include "core/model/Utf8Text.h"

namespace kwb {

namespace {

std::string formatBound(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

bool isEnvironmentName(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char ch : s)
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
      return false;
  return true;
}

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

// Reads a number in [minValue, maxValue] (before scaling); anything else keeps the default and adds a
// warning naming the variable, its value and what is wrong with it.
template <typename T>
void readNumber(const EnvLookup& env, const char* name, T& target, double minValue, double maxValue,
                LlmEndpointConfig& c, double scale = 1) {
  const std::optional<std::string> found = env(name);
  if (!found) return;
  const std::string_view text(*found);
  double parsed = 0;
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), last, parsed);
  std::string problem;
  if (text.empty())
    problem = "is empty";
  else if (ec != std::errc() || ptr != last)
    problem = "is not a number";
  else if (std::is_integral_v<T> && scale == 1 &&
           parsed != static_cast<double>(static_cast<long long>(parsed)))
    problem = "is not a whole number";
  else if (!(parsed >= minValue && parsed <= maxValue))
    problem = "is out of range (" + formatBound(minValue) + " to " + formatBound(maxValue) + ")";
  if (!problem.empty()) {
    c.warnings.push_back(std::string(name) + "=\"" + toValidUtf8(bodySnippet(*found, 40)) + "\" " + problem +
                         "; keeping the default " + formatBound(static_cast<double>(target) / scale));
    return;
  }
  target = static_cast<T>(parsed * scale);
}

// Splits "scheme://host/path?query#fragment" into the part the path rules apply to and the rest
// ("?query#fragment", kept as given), so an Azure-style ?api-version=... stays at the end.
std::pair<std::string, std::string> splitQuery(const std::string& url) {
  const std::size_t q = url.find_first_of("?#");
  if (q == std::string::npos) return {url, std::string()};
  return {url.substr(0, q), url.substr(q)};
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
  readNumber(env, "KWB_LLM_TEMPERATURE", c.temperature, 0.0, 2.0, c);
  readNumber(env, "KWB_LLM_MAX_TOKENS", c.maxTokens, 1, 10'000'000, c);
  readNumber(env, "KWB_LLM_TIMEOUT_S", c.requestTimeoutMs, 1, 86'400, c, 1000);
  readNumber(env, "KWB_LLM_IDLE_TIMEOUT_S", c.idleTimeoutMs, 1, 86'400, c, 1000);
  readNumber(env, "KWB_LLM_MAX_RETRIES", c.maxRetries, 0, 100, c);
  if (auto p = env("KWB_LLM_PROVIDER");
      p && !p->empty() && *p != "openai" && *p != "anthropic" && *p != "replay")
    c.warnings.push_back("KWB_LLM_PROVIDER=\"" + toValidUtf8(bodySnippet(*p, 40)) +
                         "\" is not a provider kwb knows (openai, anthropic, replay)");
  if (auto u = env("KWB_LLM_BASE_URL"); u && !u->empty()) {
    const std::string shown = redactUrl(toValidUtf8(*u));
    if (u->rfind("http://", 0) != 0 && u->rfind("https://", 0) != 0)
      c.warnings.push_back("KWB_LLM_BASE_URL=\"" + shown + "\" does not start with http:// or https://");
    else if (u->find_first_of(" \t\r\n") != std::string::npos)
      c.warnings.push_back("KWB_LLM_BASE_URL=\"" + shown + "\" contains whitespace");
  }
  if (auto k = env("KWB_LLM_API_KEY_ENV"); k && !isEnvironmentName(*k))
    // The value is not quoted: it may be a key pasted in the wrong place.
    c.warnings.push_back("KWB_LLM_API_KEY_ENV is not an environment variable name (letters, digits, _; " +
                         std::to_string(k->size()) +
                         " characters given): it must NAME the variable that holds the key, not be the key");
  return c;
}

const std::vector<std::string>& llmEnvironmentVariableNames() {
  static const std::vector<std::string> names = {
      "KWB_LLM_PROVIDER",       "KWB_LLM_BASE_URL",    "KWB_LLM_MODEL",      "KWB_LLM_API_KEY_ENV",
      "KWB_LLM_REPLAY_FILE",    "KWB_LLM_TEMPERATURE", "KWB_LLM_MAX_TOKENS", "KWB_LLM_TIMEOUT_S",
      "KWB_LLM_IDLE_TIMEOUT_S", "KWB_LLM_MAX_RETRIES"};
  return names;
}

namespace {

std::size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> unknownLlmEnvironmentVariables(const std::vector<std::string>& names) {
  const std::string prefix = "KWB_LLM_";
  const auto& known = llmEnvironmentVariableNames();
  std::vector<std::string> out;
  for (const std::string& name : names) {
    if (name.rfind(prefix, 0) != 0 || std::find(known.begin(), known.end(), name) != known.end()) continue;
    const std::string shown = toValidUtf8(bodySnippet(name, 60));
    std::string warning = shown + " is not a variable kwb reads";
    const std::string* closest = nullptr;
    std::size_t best = 0;
    for (const std::string& k : known) {
      const std::size_t d = editDistance(name, k);
      if (!closest || d < best) {
        closest = &k;
        best = d;
      }
    }
    // Only a near miss is a likely typo; otherwise list what exists.
    if (closest && best <= 3)
      warning += "; did you mean " + *closest + "?";
    else
      warning +=
          " (known: KWB_LLM_PROVIDER, _BASE_URL, _MODEL, _API_KEY_ENV, _REPLAY_FILE, _TEMPERATURE, "
          "_MAX_TOKENS, _TIMEOUT_S, _IDLE_TIMEOUT_S, _MAX_RETRIES)";
    out.push_back(std::move(warning));
  }
  return out;
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
  const auto [path, query] = splitQuery(baseUrl);
  const std::string base = stripTrailingSlashes(path);
  if (endsWith(base, "/chat/completions")) return base + query;
  if (urlPath(base).empty()) return base + "/v1/chat/completions" + query;
  return base + "/chat/completions" + query;
}

std::string anthropicMessagesUrl(const std::string& baseUrl) {
  const auto [path, query] = splitQuery(baseUrl);
  const std::string base = stripTrailingSlashes(path);
  if (endsWith(base, "/v1/messages")) return base + query;
  if (endsWith(base, "/v1")) return base + "/messages" + query;
  return base + "/v1/messages" + query;
}

}  // namespace kwb
