// SPDX-License-Identifier: MIT
#pragma once
// The LLM options `kwb run` and `kwb suite run` share (--provider, --base-url, --model, --api-key-env,
// --replay), merged over the KWB_LLM_* environment.

#include <CLI/CLI.hpp>
#include <string>

#include "core/llm/LlmEndpointConfig.h"

namespace kwb::cli {

struct LlmOptions {
  std::string provider;
  std::string baseUrl;
  std::string model;
  std::string apiKeyEnv;
  std::string replay;
};

void addLlmOptions(CLI::App& cmd, LlmOptions& o);

// The endpoint the options and the environment describe. Sets KWB_LLM_API_KEY_ENV so that child
// processes never inherit the key (call before any thread starts). Empty `error` when usable.
LlmEndpointConfig resolveLlmEndpoint(const LlmOptions& o, std::string& error);

}  // namespace kwb::cli
