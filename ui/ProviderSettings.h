// SPDX-License-Identifier: MIT
#pragma once
// The LLM provider settings the GUI keeps with QSettings (standard location): provider, base URL, model
// and the NAME of the environment variable holding the API key. The key itself is never stored.
// KWB_LLM_* environment variables override the stored fields one by one; the overrides are reported
// (providerOverrides) so the settings dialog and the provider summary can say which field a variable
// replaces, and misspelt KWB_LLM_* names are reported too (docs/workbench.md, "Settings").

#include <QSettings>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "core/llm/LlmEndpointConfig.h"

namespace kwb::ui {

enum class ProviderField { Provider, BaseUrl, Model, ApiKeyEnv };

// A stored field an environment variable replaces while it is set.
struct ProviderOverride {
  ProviderField field;
  QString variable;  // "KWB_LLM_MODEL"
  QString value;     // what it holds (a URL redacted; never a key: KWB_LLM_API_KEY_ENV holds a name)
  bool operator==(const ProviderOverride&) const = default;
};

// What the engineer saved in Settings, without any environment variable applied.
LlmEndpointConfig loadStoredProviderSettings(QSettings& settings,
                                             const EnvLookup& env = processEnvironment());
// The settings in effect: the stored ones with each KWB_LLM_* variable that is set replacing its field.
LlmEndpointConfig loadProviderSettings(QSettings& settings, const EnvLookup& env = processEnvironment());
void saveProviderSettings(QSettings& settings, const LlmEndpointConfig& config);

std::vector<ProviderOverride> providerOverrides(const EnvLookup& env = processEnvironment());
// Problems with the KWB_LLM_* environment: unusable values and unknown (misspelt) names. `names` are
// the environment's variable names (default: this process's).
QStringList providerEnvironmentWarnings(const EnvLookup& env = processEnvironment(),
                                        std::optional<QStringList> names = std::nullopt);

}  // namespace kwb::ui
