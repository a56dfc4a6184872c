// SPDX-License-Identifier: MIT
#include "ui/ProviderSettings.h"

#include "ui/UiLogging.h"

namespace kwb::ui {

LlmEndpointConfig loadProviderSettings(QSettings& s, const EnvLookup& env) {
  LlmEndpointConfig fromEnv = llmEndpointFromEnvironment(env);
  for (const auto& w : fromEnv.warnings)
    qCWarning(lcUiSettings) << "LLM settings from the environment:" << w.c_str();
  if (fromEnv.configured()) {
    qCInfo(lcUiSettings) << "LLM provider from the environment:" << fromEnv.provider.c_str();
    return fromEnv;
  }
  LlmEndpointConfig c = fromEnv;
  c.provider = s.value(QStringLiteral("llm/provider")).toString().toStdString();
  c.baseUrl = s.value(QStringLiteral("llm/baseUrl")).toString().toStdString();
  c.model = s.value(QStringLiteral("llm/model")).toString().toStdString();
  const QString keyEnv = s.value(QStringLiteral("llm/apiKeyEnv")).toString();
  if (!keyEnv.isEmpty()) c.apiKeyEnv = keyEnv.toStdString();
  c.apiKeyPresent = env(c.apiKeyEnv).has_value();
  // The variable's name only, never its value (docs/sandbox.md: keys are read at request time).
  if (!c.provider.empty() && !c.apiKeyPresent)
    qCWarning(lcUiSettings) << "LLM provider" << c.provider.c_str() << "is set but" << c.apiKeyEnv.c_str()
                            << "holds no key";
  return c;
}

void saveProviderSettings(QSettings& s, const LlmEndpointConfig& c) {
  s.setValue(QStringLiteral("llm/provider"), QString::fromStdString(c.provider));
  s.setValue(QStringLiteral("llm/baseUrl"), QString::fromStdString(c.baseUrl));
  s.setValue(QStringLiteral("llm/model"), QString::fromStdString(c.model));
  s.setValue(QStringLiteral("llm/apiKeyEnv"), QString::fromStdString(c.apiKeyEnv));
  s.sync();
}

}  // namespace kwb::ui
