// SPDX-License-Identifier: MIT
#pragma once
// What the workbench remembers about sessions between runs, in QSettings: the recently used session
// folders (newest first) and, per session folder, the view the engineer left it in (selected
// iteration, the tabs on the right and at the bottom), so reopening a session restores the view.

#include <QString>
#include <QStringList>
#include <optional>

class QSettings;

namespace kwb::ui {

struct SessionViewState {
  std::optional<int> selectedIteration;
  int analysisTab = 0;  // Profile / Pipeline trace / Diff / Constraints
  int feedbackTab = 0;  // Diagnostics / Conversation
  bool operator==(const SessionViewState&) const = default;
};

inline constexpr int kMaxRecentSessions = 10;

// Recent session folders that still exist, newest first.
QStringList recentSessions(QSettings& settings);
// Moves `dir` (made absolute) to the front of the list, keeping at most kMaxRecentSessions.
void rememberSession(QSettings& settings, const QString& dir);

void saveSessionViewState(QSettings& settings, const QString& sessionDir, const SessionViewState& state);
std::optional<SessionViewState> loadSessionViewState(QSettings& settings, const QString& sessionDir);

}  // namespace kwb::ui
