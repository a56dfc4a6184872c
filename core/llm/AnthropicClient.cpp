// SPDX-License-Identifier: MIT
#include "core/llm/AnthropicClient.h"

#include <nlohmann/json.hpp>

#include "core/llm/Redaction.h"

namespace kwb {

namespace {

std::string stringAt(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void readUsage(const nlohmann::json& usage, StreamState& state, const std::string& where) {
  if (!usage.is_object()) return;
  if (auto n = HttpLlmClient::tokenCount(usage, "input_tokens", where, state)) {
    state.usage.promptTokens = *n;
    state.usage.reported = true;
  }
  if (auto n = HttpLlmClient::tokenCount(usage, "output_tokens", where, state)) {
    state.usage.completionTokens = *n;
    state.usage.reported = true;
  }
}

}  // namespace

AnthropicClient::AnthropicClient(LlmEndpointConfig config, LlmClientHooks hooks)
    : HttpLlmClient(std::move(config), std::move(hooks)) {}

std::string AnthropicClient::endpointUrl() const {
  return anthropicMessagesUrl(config_.baseUrl);
}

std::vector<std::pair<std::string, std::string>> AnthropicClient::headers(const std::string& apiKey) const {
  std::vector<std::pair<std::string, std::string>> h{{"anthropic-version", "2023-06-01"}};
  if (!apiKey.empty()) h.emplace_back("x-api-key", apiKey);
  return h;
}

nlohmann::json AnthropicClient::requestBody(const LlmRequest& r, const std::string& model, double temperature,
                                            int maxTokens) const {
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& m : r.messages) messages.push_back({{"role", toString(m.role)}, {"content", m.content}});
  nlohmann::json body{{"model", model},
                      {"messages", std::move(messages)},
                      {"max_tokens", maxTokens},
                      {"temperature", temperature},
                      {"stream", true}};
  if (!r.system.empty()) body["system"] = r.system;
  return body;
}

void AnthropicClient::onEvent(const SseEvent& e, StreamState& state) const {
  if (e.event == "ping" || e.data.empty()) return;
  nlohmann::json j = parseEventJson(e.data);
  if (j.is_discarded() || !j.is_object()) {
    state.error = {LlmErrorKind::BadResponse,
                   "unparseable " + (e.event.empty() ? std::string("stream") : e.event) + " event from " +
                       displayUrl() + ": " + bodySnippet(e.data),
                   0};
    return;
  }
  const std::string type = e.event.empty() ? stringAt(j, "type") : e.event;
  if (type == "message_start") {
    if (auto m = j.find("message"); m != j.end() && m->is_object()) {
      if (auto model = stringAt(*m, "model"); !model.empty()) state.model = model;
      if (auto id = stringAt(*m, "id"); !id.empty() && state.requestId.empty()) state.requestId = id;
      if (auto u = m->find("usage"); u != m->end()) readUsage(*u, state, displayUrl());
    }
  } else if (type == "content_block_start") {
    if (auto b = j.find("content_block"); b != j.end() && b->is_object()) {
      const std::string blockType = stringAt(*b, "type");
      if (blockType == "text") state.emitText(stringAt(*b, "text"));
      if (blockType == "thinking") state.emitReasoning(stringAt(*b, "thinking"));
    }
  } else if (type == "content_block_delta") {
    if (auto d = j.find("delta"); d != j.end() && d->is_object()) {
      const std::string deltaType = stringAt(*d, "type");
      if (deltaType == "text_delta")
        state.emitText(stringAt(*d, "text"));
      else if (deltaType == "thinking_delta")
        state.emitReasoning(stringAt(*d, "thinking"));
      // signature_delta, input_json_delta and citations carry nothing for the agent
    }
  } else if (type == "message_delta") {
    if (auto d = j.find("delta"); d != j.end() && d->is_object())
      if (auto reason = stringAt(*d, "stop_reason"); !reason.empty()) state.finishReason = reason;
    if (auto u = j.find("usage"); u != j.end()) readUsage(*u, state, displayUrl());
  } else if (type == "message_stop") {
    state.done = true;
  } else if (type == "error") {
    const std::string code = errorCodeFromJson(j);
    state.error = {
        code == "overloaded_error" || code == "api_error" ? LlmErrorKind::Server : LlmErrorKind::BadResponse,
        "error event in the stream from " + displayUrl() + ": " +
            (code.empty() ? std::string() : code + ": ") + errorMessageFromJson(j),
        0};
    state.errorRetryable = state.error.kind == LlmErrorKind::Server;
  }
}

bool AnthropicClient::onJsonBody(const nlohmann::json& body, StreamState& state) const {
  if (!body.is_object() || stringAt(body, "type") != "message") return false;
  if (auto model = stringAt(body, "model"); !model.empty()) state.model = model;
  if (auto id = stringAt(body, "id"); !id.empty() && state.requestId.empty()) state.requestId = id;
  if (auto u = body.find("usage"); u != body.end()) readUsage(*u, state, displayUrl());
  if (auto content = body.find("content"); content != body.end() && content->is_array())
    for (const auto& block : *content) {
      if (stringAt(block, "type") == "text") state.emitText(stringAt(block, "text"));
      if (stringAt(block, "type") == "thinking") state.emitReasoning(stringAt(block, "thinking"));
    }
  state.finishReason = stringAt(body, "stop_reason");
  return true;
}

}  // namespace kwb
