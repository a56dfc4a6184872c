// SPDX-License-Identifier: MIT
#include "ui/ProviderSettings.h"

#include <QProcessEnvironment>
#include <QRegularExpression>

#include "core/llm/Redaction.h"
#include "core/model/Session.h"
#include "ui/UiLogging.h"

namespace kwb::ui {
namespace {

struct FieldVariable {
  ProviderField field;
  const char* variable;
};
constexpr FieldVariable kFieldVariables[] = {{ProviderField::Provider, "KWB_LLM_PROVIDER"},
                                             {ProviderField::BaseUrl, "KWB_LLM_BASE_URL"},
                                             {ProviderField::Model, "KWB_LLM_MODEL"},
                                             {ProviderField::ApiKeyEnv, "KWB_LLM_API_KEY_ENV"}};

std::string defaultKeyEnv(const std::string& provider) {
  return provider == "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
}

}  // namespace

LlmEndpointConfig loadStoredProviderSettings(QSettings& s, const EnvLookup& env) {
  LlmEndpointConfig c;
  c.provider = s.value(QStringLiteral("llm/provider")).toString().toStdString();
  c.baseUrl = s.value(QStringLiteral("llm/baseUrl")).toString().toStdString();
  c.model = s.value(QStringLiteral("llm/model")).toString().toStdString();
  const QString keyEnv = s.value(QStringLiteral("llm/apiKeyEnv")).toString();
  c.apiKeyEnv = keyEnv.isEmpty() ? defaultKeyEnv(c.provider) : keyEnv.toStdString();
  c.apiKeyPresent = env(c.apiKeyEnv).has_value();
  return c;
}

LlmEndpointConfig loadProviderSettings(QSettings& s, const EnvLookup& env) {
  // The environment's reading supplies the tuning values (timeouts, retries) and their warnings; the
  // four stored fields are replaced only by the variables actually set.
  LlmEndpointConfig c = llmEndpointFromEnvironment(env);
  for (const auto& w : c.warnings)
    qCWarning(lcUiSettings) << "LLM settings from the environment:" << w.c_str();
  const LlmEndpointConfig stored = loadStoredProviderSettings(s, env);
  const LlmEndpointConfig fromEnv = c;
  if (!env("KWB_LLM_PROVIDER")) c.provider = stored.provider.empty() ? fromEnv.provider : stored.provider;
  if (!env("KWB_LLM_BASE_URL")) {
    c.baseUrl = stored.baseUrl;
    if (c.baseUrl.empty() && c.provider == "anthropic") c.baseUrl = "https://api.anthropic.com";
  }
  if (!env("KWB_LLM_MODEL")) c.model = stored.model;
  if (!env("KWB_LLM_API_KEY_ENV"))
    c.apiKeyEnv = s.value(QStringLiteral("llm/apiKeyEnv")).toString().isEmpty() ? defaultKeyEnv(c.provider)
                                                                                : stored.apiKeyEnv;
  c.apiKeyPresent = env(c.apiKeyEnv).has_value();
  for (const auto& o : providerOverrides(env))
    qCInfo(lcUiSettings) << "LLM setting overridden by" << o.variable;
  // The variable's name only, never its value (docs/sandbox.md: keys are read at request time).
  if (!c.provider.empty() && c.provider != "replay" && !c.apiKeyPresent)
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

std::vector<ProviderOverride> providerOverrides(const EnvLookup& env) {
  std::vector<ProviderOverride> out;
  for (const auto& [field, variable] : kFieldVariables) {
    const auto v = env(variable);
    if (!v) continue;
    std::string shown = field == ProviderField::BaseUrl ? redactUrl(*v) : bodySnippet(*v, 80);
    // A "name" that is not one may be a key pasted in its place: never shown.
    if (field == ProviderField::ApiKeyEnv &&
        !QString::fromStdString(*v).contains(QRegularExpression(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"))))
      shown = "(not a variable name)";
    out.push_back({field, QString::fromLatin1(variable), QString::fromStdString(shown)});
  }
  return out;
}

QStringList providerEnvironmentWarnings(const EnvLookup& env, std::optional<QStringList> names) {
  QStringList out;
  for (const auto& w : llmEndpointFromEnvironment(env).warnings) out << QString::fromStdString(w);
  const QStringList all = names ? *names : QProcessEnvironment::systemEnvironment().keys();
  std::vector<std::string> list;
  for (const QString& n : all) list.push_back(n.toStdString());
  for (const auto& w : unknownLlmEnvironmentVariables(list)) out << QString::fromStdString(w);
  return out;
}

}  // namespace kwb::ui
