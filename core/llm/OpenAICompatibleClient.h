// SPDX-License-Identifier: MIT
#pragma once
// OpenAI-compatible Chat Completions with SSE streaming: OpenAI, vLLM, Ollama, llama.cpp server,
// DeepSeek, Qwen/DashScope compatible mode and most gateways. POST {base}/chat/completions (URL rule in
// openAiChatCompletionsUrl), "Authorization: Bearer <key>" when the key variable is set, stream with
// stream_options.include_usage; reads choices[0].delta.content, delta.reasoning_content / delta.reasoning
// (DeepSeek, Qwen, vLLM) and the usage of the final chunk. A server that ignores "stream" and answers
// with one chat.completion JSON object is accepted too.

#include "core/llm/HttpLlmClient.h"

namespace kwb {

class OpenAICompatibleClient : public HttpLlmClient {
 public:
  explicit OpenAICompatibleClient(LlmEndpointConfig config, LlmClientHooks hooks = {});

  std::string provider() const override { return "openai"; }
  std::string endpointUrl() const override;

 protected:
  std::vector<std::pair<std::string, std::string>> headers(const std::string& apiKey) const override;
  nlohmann::json requestBody(const LlmRequest& r, const std::string& model, double temperature,
                             int maxTokens) const override;
  void onEvent(const SseEvent& e, StreamState& state) const override;
  bool onJsonBody(const nlohmann::json& body, StreamState& state) const override;
  std::string requestIdHeader() const override { return "x-request-id"; }
  std::string endMarker() const override { return "data: [DONE]"; }
};

}  // namespace kwb
