// SPDX-License-Identifier: MIT
#pragma once
// The LLM provider settings the GUI keeps with QSettings (standard location): provider, base URL, model
// and the NAME of the environment variable holding the API key. The key itself is never stored.

#include <QSettings>

#include "core/llm/LlmEndpointConfig.h"

namespace kwb::ui {

// Environment variables (KWB_LLM_*) win over stored settings, so a shell can override the GUI.
LlmEndpointConfig loadProviderSettings(QSettings& settings, const EnvLookup& env = processEnvironment());
void saveProviderSettings(QSettings& settings, const LlmEndpointConfig& config);

}  // namespace kwb::ui
