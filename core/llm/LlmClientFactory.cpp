// SPDX-License-Identifier: MIT
#include <stdexcept>

#include "core/llm/AnthropicClient.h"
#include "core/llm/LlmClient.h"
#include "core/llm/OpenAICompatibleClient.h"
#include "core/llm/ReplayClient.h"

namespace kwb {

std::unique_ptr<LlmClient> makeLlmClient(const LlmEndpointConfig& config, LlmClientHooks hooks) {
  if (config.provider == "replay") {
    if (config.replayFile.empty())
      throw std::invalid_argument(
          "provider \"replay\" needs a recording: set KWB_LLM_REPLAY_FILE or pass the file");
    try {
      return ReplayClient::fromFile(config.replayFile, {}, hooks.clock);
    } catch (const std::runtime_error& e) {
      throw std::invalid_argument(e.what());
    }
  }
  if (config.provider != "openai" && config.provider != "anthropic")
    throw std::invalid_argument("unknown LLM provider \"" + config.provider +
                                "\": use openai (any OpenAI-compatible server), anthropic or replay");
  if (config.baseUrl.empty())
    throw std::invalid_argument(
        "no base URL for the " + config.provider +
        " provider: set KWB_LLM_BASE_URL or pass --base-url (e.g. https://api.openai.com/v1)");
  if (config.baseUrl.rfind("http://", 0) != 0 && config.baseUrl.rfind("https://", 0) != 0)
    throw std::invalid_argument("base URL \"" + config.baseUrl + "\" must start with http:// or https://");
  if (config.model.empty())
    throw std::invalid_argument("no model for the " + config.provider +
                                " provider: set KWB_LLM_MODEL or pass --model");
  if (config.provider == "anthropic") return std::make_unique<AnthropicClient>(config, std::move(hooks));
  return std::make_unique<OpenAICompatibleClient>(config, std::move(hooks));
}

}  // namespace kwb
