// SPDX-License-Identifier: MIT
#pragma once
// What the workbench remembers about sessions between runs, in QSettings: the recently used session
// folders (newest first), a one-line summary of each for Session ▸ Open recent (task, iterations, best
// verdict, when it was last used: remembered from the session on screen, so building the menu reads no
// session file), and, per session folder, the view the engineer left it in (selected iteration, the
// tabs on the right and at the bottom, the diff mode, the agent's working time), so reopening a
// session restores the view.

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

#include "core/model/Session.h"

class QSettings;

namespace kwb::ui {

struct SessionViewState {
  std::optional<int> selectedIteration;
  int analysisTab = 0;  // Profile / Pipeline trace / Diff / Constraints
  int feedbackTab = 0;  // Diagnostics / Conversation
  bool inlineDiff = false;
  qint64 elapsedMs = 0;  // the agent's working time shown in the status bar
  bool operator==(const SessionViewState&) const = default;
};

// The line Open recent shows for a session.
struct SessionSummaryLine {
  QString task;
  int iterations = 0;
  QString best;  // "pass, 1.52× the baseline", "best: wrong_answer", or empty with no finished iteration
  QDateTime lastUsed;
  bool operator==(const SessionSummaryLine&) const = default;
};

struct RecentSession {
  QString dir;
  std::optional<SessionSummaryLine> summary;  // absent for sessions remembered before summaries existed
  // "add_custom · 7 iterations · pass, 1.52× · 2026-12-01 17:06"; the folder name without a summary.
  QString label() const;
};

inline constexpr int kMaxRecentSessions = 10;

SessionSummaryLine summarizeSession(const Session& session, const QDateTime& lastUsed);

// Recent session folders that still exist, newest first.
QStringList recentSessions(QSettings& settings);
QList<RecentSession> recentSessionEntries(QSettings& settings);
// Moves `dir` (made absolute) to the front of the list, keeping at most kMaxRecentSessions.
void rememberSession(QSettings& settings, const QString& dir);
void saveSessionSummary(QSettings& settings, const QString& sessionDir, const SessionSummaryLine& summary);

void saveSessionViewState(QSettings& settings, const QString& sessionDir, const SessionViewState& state);
std::optional<SessionViewState> loadSessionViewState(QSettings& settings, const QString& sessionDir);

// The remote NPU host (ssh://...) a session evaluates on, kept with its view: session.json records the
// backend (ascend-cann), not where it ran (docs/workbench.md, "Settings"). Empty: on this machine.
void saveSessionRemoteHost(QSettings& settings, const QString& sessionDir, const QString& url);
QString loadSessionRemoteHost(QSettings& settings, const QString& sessionDir);

}  // namespace kwb::ui
