// SPDX-License-Identifier: MIT
#include "ui/SessionDefaults.h"

#include <algorithm>

#include "ui/RemoteHostSettings.h"

namespace kwb::ui {

SessionDefaults builtinSessionDefaults() {
  SessionDefaults d;
  d.limits.maxIterations = 20;
  d.limits.candidatesPerRound = 1;
  d.limits.patience = 3;
  return d;
}

SessionDefaults loadSessionDefaults(QSettings& s) {
  SessionDefaults d = builtinSessionDefaults();
  s.beginGroup(QStringLiteral("limits"));
  auto optInt = [&](const char* key, std::optional<int> fallback) -> std::optional<int> {
    if (!s.contains(QLatin1String(key))) return fallback;
    const int v = s.value(QLatin1String(key)).toInt();
    return v > 0 ? std::optional<int>(v) : std::nullopt;  // 0 stored = no limit
  };
  d.limits.maxIterations = optInt("maxIterations", d.limits.maxIterations);
  d.limits.patience = optInt("patience", d.limits.patience);
  d.limits.candidatesPerRound = std::clamp(s.value(QStringLiteral("candidatesPerRound"), 1).toInt(), 1, 16);
  if (const qlonglong t = s.value(QStringLiteral("maxTokens"), 0).toLongLong(); t > 0) d.limits.maxTokens = t;
  if (const double m = s.value(QStringLiteral("maxMinutes"), 0.0).toDouble(); m > 0)
    d.limits.maxSeconds = m * 60.0;
  if (const double x = s.value(QStringLiteral("targetSpeedup"), 0.0).toDouble(); x > 0)
    d.limits.targetSpeedup = x;
  s.endGroup();
  d.caseTimeoutSeconds =
      std::clamp(s.value(QStringLiteral("sandbox/caseTimeoutSeconds"), 60).toInt(), 1, 3600);
  const QString backend = s.value(QStringLiteral("backend/default")).toString();
  if (backend == QStringLiteral("ascend-cann") || backend == QLatin1String(kRemoteBackendChoice))
    d.backend = backend;
  return d;
}

void saveSessionDefaults(QSettings& s, const SessionDefaults& d) {
  s.beginGroup(QStringLiteral("limits"));
  s.setValue(QStringLiteral("maxIterations"), d.limits.maxIterations.value_or(0));
  s.setValue(QStringLiteral("patience"), d.limits.patience.value_or(0));
  s.setValue(QStringLiteral("candidatesPerRound"), d.limits.candidatesPerRound);
  s.setValue(QStringLiteral("maxTokens"), qlonglong(d.limits.maxTokens.value_or(0)));
  s.setValue(QStringLiteral("maxMinutes"), d.limits.maxSeconds.value_or(0.0) / 60.0);
  s.setValue(QStringLiteral("targetSpeedup"), d.limits.targetSpeedup.value_or(0.0));
  s.endGroup();
  s.setValue(QStringLiteral("sandbox/caseTimeoutSeconds"), d.caseTimeoutSeconds);
  s.setValue(QStringLiteral("backend/default"), d.backend);
  s.sync();
}

}  // namespace kwb::ui
