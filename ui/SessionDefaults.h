// SPDX-License-Identifier: MIT
#pragma once
// What a new session starts with unless the engineer changes it in the new-session dialog: the agent's
// limits, the sandbox's per-case time limit and the backend it evaluates on. Stored with QSettings
// (Settings ▸ Limits / Sandbox / Backend).

#include <QSettings>

#include "core/model/Session.h"

namespace kwb::ui {

struct SessionDefaults {
  SessionLimits limits;
  int caseTimeoutSeconds = 60;  // one sandboxed verification case
  // "ascend-sim" (the built-in emulator), "ascend-cann" (the toolkit here) or kRemoteBackendChoice (the
  // remote NPU host of RemoteHostSettings).
  QString backend = QStringLiteral("ascend-sim");
  bool operator==(const SessionDefaults&) const = default;
};

// Built-in defaults: 20 iterations, one candidate per round, patience 3, no token/time budget.
SessionDefaults builtinSessionDefaults();
SessionDefaults loadSessionDefaults(QSettings& settings);
void saveSessionDefaults(QSettings& settings, const SessionDefaults& defaults);

}  // namespace kwb::ui
