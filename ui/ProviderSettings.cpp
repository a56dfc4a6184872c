#include "ui/ProviderSettings.h"

namespace kwb::ui {

LlmEndpointConfig loadProviderSettings(QSettings& s, const EnvLookup& env) {
  LlmEndpointConfig fromEnv = llmEndpointFromEnvironment(env);
  if (fromEnv.configured()) return fromEnv;
  LlmEndpointConfig c = fromEnv;
  c.provider = s.value(QStringLiteral("llm/provider")).toString().toStdString();
  c.baseUrl = s.value(QStringLiteral("llm/baseUrl")).toString().toStdString();
  c.model = s.value(QStringLiteral("llm/model")).toString().toStdString();
  const QString keyEnv = s.value(QStringLiteral("llm/apiKeyEnv")).toString();
  if (!keyEnv.isEmpty()) c.apiKeyEnv = keyEnv.toStdString();
  c.apiKeyPresent = env(c.apiKeyEnv).has_value();
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
