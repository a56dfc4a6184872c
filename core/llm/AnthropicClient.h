// SPDX-License-Identifier: MIT
#pragma once
// Anthropic Messages API with streaming: POST {base}/v1/messages (URL rule in anthropicMessagesUrl) with
// x-api-key and anthropic-version: 2023-06-01. Events: message_start (input tokens, model, id),
// content_block_start / content_block_delta (text_delta, thinking_delta), message_delta (output tokens,
// stop_reason), message_stop (end marker), ping, and error (overloaded_error and api_error are retried
// when nothing was delivered yet).

#include "core/llm/HttpLlmClient.h"

namespace kwb {

class AnthropicClient : public HttpLlmClient {
 public:
  explicit AnthropicClient(LlmEndpointConfig config, LlmClientHooks hooks = {});

  std::string provider() const override { return "anthropic"; }
  std::string endpointUrl() const override;

 protected:
  std::vector<std::pair<std::string, std::string>> headers(const std::string& apiKey) const override;
  nlohmann::json requestBody(const LlmRequest& r, const std::string& model, double temperature,
                             int maxTokens) const override;
  void onEvent(const SseEvent& e, StreamState& state) const override;
  bool onJsonBody(const nlohmann::json& body, StreamState& state) const override;
  std::string requestIdHeader() const override { return "request-id"; }
  std::string endMarker() const override { return "event: message_stop"; }
};

}  // namespace kwb
