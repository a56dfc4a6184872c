// SPDX-License-Identifier: MIT
#include "core/llm/OpenAICompatibleClient.h"

#include <nlohmann/json.hpp>

#include "core/llm/Redaction.h"

namespace kwb {

namespace {

std::string stringAt(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void readUsage(const nlohmann::json& chunk, StreamState& state, const std::string& where) {
  auto u = chunk.find("usage");
  if (u == chunk.end() || !u->is_object()) return;
  const auto prompt = HttpLlmClient::tokenCount(*u, "prompt_tokens", where, state);
  const auto completion = HttpLlmClient::tokenCount(*u, "completion_tokens", where, state);
  if (state.error) return;
  state.usage.promptTokens = prompt.value_or(0);
  state.usage.completionTokens = completion.value_or(0);
  state.usage.reported = true;
}

}  // namespace

OpenAICompatibleClient::OpenAICompatibleClient(LlmEndpointConfig config, LlmClientHooks hooks)
    : HttpLlmClient(std::move(config), std::move(hooks)) {}

std::string OpenAICompatibleClient::endpointUrl() const {
  return openAiChatCompletionsUrl(config_.baseUrl);
}

std::vector<std::pair<std::string, std::string>> OpenAICompatibleClient::headers(
    const std::string& apiKey) const {
  std::vector<std::pair<std::string, std::string>> h;
  if (!apiKey.empty()) h.emplace_back("Authorization", "Bearer " + apiKey);
  return h;
}

nlohmann::json OpenAICompatibleClient::requestBody(const LlmRequest& r, const std::string& model,
                                                   double temperature, int maxTokens) const {
  nlohmann::json messages = nlohmann::json::array();
  if (!r.system.empty()) messages.push_back({{"role", "system"}, {"content", r.system}});
  for (const auto& m : r.messages) messages.push_back({{"role", toString(m.role)}, {"content", m.content}});
  return {{"model", model},
          {"messages", std::move(messages)},
          {"temperature", temperature},
          {"max_tokens", maxTokens},
          {"stream", true},
          {"stream_options", {{"include_usage", true}}}};
}

void OpenAICompatibleClient::onEvent(const SseEvent& e, StreamState& state) const {
  if (e.data == "[DONE]") {
    state.done = true;
    return;
  }
  if (e.data.empty()) return;
  nlohmann::json chunk = parseEventJson(e.data);
  if (chunk.is_discarded() || !chunk.is_object()) {
    state.error = {LlmErrorKind::BadResponse,
                   "unparseable stream event from " + displayUrl() + ": " + bodySnippet(e.data), 0};
    return;
  }
  if (chunk.contains("error")) {  // some servers report failures inside the stream
    state.error = {LlmErrorKind::Server,
                   "error in the stream from " + displayUrl() + ": " + errorMessageFromJson(chunk), 0};
    state.errorRetryable = true;
    return;
  }
  if (auto m = stringAt(chunk, "model"); !m.empty()) state.model = m;
  if (auto id = stringAt(chunk, "id"); !id.empty() && state.requestId.empty()) state.requestId = id;
  readUsage(chunk, state, displayUrl());
  if (state.error) return;
  auto choices = chunk.find("choices");
  if (choices == chunk.end() || !choices->is_array() || choices->empty()) return;
  const auto& choice = (*choices)[0];
  if (auto d = choice.find("delta"); d != choice.end() && d->is_object()) {
    state.emitReasoning(stringAt(*d, "reasoning_content"));
    state.emitReasoning(stringAt(*d, "reasoning"));
    state.emitText(stringAt(*d, "content"));
  }
  if (auto f = stringAt(choice, "finish_reason"); !f.empty()) state.finishReason = f;
}

bool OpenAICompatibleClient::onJsonBody(const nlohmann::json& body, StreamState& state) const {
  if (!body.is_object()) return false;
  auto choices = body.find("choices");
  if (choices == body.end() || !choices->is_array() || choices->empty()) return false;
  const auto& choice = (*choices)[0];
  auto msg = choice.find("message");
  if (msg == choice.end() || !msg->is_object()) return false;
  if (auto m = stringAt(body, "model"); !m.empty()) state.model = m;
  if (auto id = stringAt(body, "id"); !id.empty() && state.requestId.empty()) state.requestId = id;
  readUsage(body, state, displayUrl());
  if (state.error) return true;
  state.emitReasoning(stringAt(*msg, "reasoning_content"));
  state.emitText(stringAt(*msg, "content"));
  state.finishReason = stringAt(choice, "finish_reason");
  return true;
}

}  // namespace kwb
