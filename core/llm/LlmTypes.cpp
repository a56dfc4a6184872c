// SPDX-License-Identifier: MIT
#include "core/llm/LlmTypes.h"

#include <array>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

namespace kwb {

namespace {

constexpr std::array<std::pair<LlmErrorKind, std::string_view>, 11> kErrorKindNames{{
    {LlmErrorKind::None, "none"},
    {LlmErrorKind::Auth, "auth"},
    {LlmErrorKind::RateLimited, "rate_limited"},
    {LlmErrorKind::Server, "server"},
    {LlmErrorKind::Network, "network"},
    {LlmErrorKind::Timeout, "timeout"},
    {LlmErrorKind::Cancelled, "cancelled"},
    {LlmErrorKind::BadResponse, "bad_response"},
    {LlmErrorKind::Truncated, "truncated"},
    {LlmErrorKind::BadRequest, "bad_request"},
    {LlmErrorKind::Config, "config"},
}};

template <typename T>
T field(const nlohmann::json& j, const char* name, const char* where, T fallback) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) return fallback;
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument(std::string(where) + "." + name + " has the wrong type (" + it->type_name() +
                                ")");
  }
}

void requireObject(const nlohmann::json& j, const char* where) {
  if (!j.is_object())
    throw std::invalid_argument(std::string(where) + " must be a JSON object, not " + j.type_name());
}

}  // namespace

std::string_view toString(LlmRole r) {
  return r == LlmRole::User ? "user" : "assistant";
}

std::optional<LlmRole> parseLlmRole(std::string_view text) {
  if (text == "user") return LlmRole::User;
  if (text == "assistant") return LlmRole::Assistant;
  return std::nullopt;
}

std::string_view toString(LlmErrorKind k) {
  for (const auto& [kind, name] : kErrorKindNames)
    if (kind == k) return name;
  return "unknown";
}

std::optional<LlmErrorKind> parseLlmErrorKind(std::string_view text) {
  for (const auto& [kind, name] : kErrorKindNames)
    if (name == text) return kind;
  return std::nullopt;
}

bool LlmResponse::hitMaxTokens() const {
  return finishReason == "length" || finishReason == "max_tokens";
}

nlohmann::json toJson(const LlmMessage& m) {
  return {{"role", toString(m.role)}, {"content", m.content}};
}

nlohmann::json toJson(const LlmRequest& r) {
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& m : r.messages) messages.push_back(toJson(m));
  nlohmann::json j{{"system", r.system}, {"messages", std::move(messages)}, {"model", r.model}};
  if (r.temperature) j["temperature"] = *r.temperature;
  if (r.maxTokens) j["max_tokens"] = *r.maxTokens;
  return j;
}

nlohmann::json toJson(const TokenUsage& u) {
  return {
      {"prompt_tokens", u.promptTokens}, {"completion_tokens", u.completionTokens}, {"reported", u.reported}};
}

nlohmann::json toJson(const LlmError& e) {
  nlohmann::json j{{"kind", toString(e.kind)}, {"message", e.message}};
  if (e.httpStatus != 0) j["http_status"] = e.httpStatus;
  return j;
}

nlohmann::json toJson(const LlmResponse& r) {
  nlohmann::json j{{"text", r.text},
                   {"finish_reason", r.finishReason},
                   {"usage", toJson(r.usage)},
                   {"model", r.model},
                   {"provider", r.provider},
                   {"latency_ms", r.latency.count()},
                   {"first_token_ms", r.firstTokenLatency.count()},
                   {"request_id", r.requestId},
                   {"retries", r.retries}};
  if (!r.reasoning.empty()) j["reasoning"] = r.reasoning;
  if (r.error) j["error"] = toJson(r.error);
  return j;
}

LlmRequest llmRequestFromJson(const nlohmann::json& j) {
  requireObject(j, "request");
  LlmRequest r;
  r.system = field<std::string>(j, "system", "request", "");
  r.model = field<std::string>(j, "model", "request", "");
  if (j.contains("temperature") && !j["temperature"].is_null())
    r.temperature = field<double>(j, "temperature", "request", 0.0);
  if (j.contains("max_tokens") && !j["max_tokens"].is_null())
    r.maxTokens = field<int>(j, "max_tokens", "request", 0);
  if (auto it = j.find("messages"); it != j.end()) {
    if (!it->is_array()) throw std::invalid_argument("request.messages must be an array");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const auto& m = (*it)[i];
      const std::string where = "request.messages[" + std::to_string(i) + "]";
      requireObject(m, where.c_str());
      const auto roleText = field<std::string>(m, "role", where.c_str(), "");
      auto role = parseLlmRole(roleText);
      if (!role)
        throw std::invalid_argument(where + ".role must be \"user\" or \"assistant\", not \"" + roleText +
                                    "\"");
      r.messages.push_back({*role, field<std::string>(m, "content", where.c_str(), "")});
    }
  }
  return r;
}

TokenUsage tokenUsageFromJson(const nlohmann::json& j) {
  requireObject(j, "usage");
  TokenUsage u;
  u.promptTokens = field<std::int64_t>(j, "prompt_tokens", "usage", 0);
  u.completionTokens = field<std::int64_t>(j, "completion_tokens", "usage", 0);
  u.reported =
      field<bool>(j, "reported", "usage", j.contains("prompt_tokens") || j.contains("completion_tokens"));
  return u;
}

LlmResponse llmResponseFromJson(const nlohmann::json& j) {
  requireObject(j, "response");
  LlmResponse r;
  r.text = field<std::string>(j, "text", "response", "");
  r.reasoning = field<std::string>(j, "reasoning", "response", "");
  r.finishReason = field<std::string>(j, "finish_reason", "response", "");
  if (auto it = j.find("usage"); it != j.end() && !it->is_null()) r.usage = tokenUsageFromJson(*it);
  r.model = field<std::string>(j, "model", "response", "");
  r.provider = field<std::string>(j, "provider", "response", "");
  r.latency = std::chrono::milliseconds(field<std::int64_t>(j, "latency_ms", "response", 0));
  r.firstTokenLatency = std::chrono::milliseconds(field<std::int64_t>(j, "first_token_ms", "response", 0));
  r.requestId = field<std::string>(j, "request_id", "response", "");
  r.retries = field<int>(j, "retries", "response", 0);
  if (auto it = j.find("error"); it != j.end() && !it->is_null()) {
    requireObject(*it, "response.error");
    const auto kindText = field<std::string>(*it, "kind", "response.error", "");
    auto kind = parseLlmErrorKind(kindText);
    if (!kind)
      throw std::invalid_argument("response.error.kind \"" + kindText + "\" is not a known error kind");
    r.error = {*kind, field<std::string>(*it, "message", "response.error", ""),
               field<int>(*it, "http_status", "response.error", 0)};
  }
  return r;
}

std::string llmRequestDigest(const LlmRequest& r) {
  nlohmann::json canonical{{"system", r.system}, {"messages", nlohmann::json::array()}};
  for (const auto& m : r.messages) canonical["messages"].push_back(toJson(m));
  const std::string text = canonical.dump();
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a 64
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace kwb
