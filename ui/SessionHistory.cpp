// SPDX-License-Identifier: MIT
#include "ui/SessionHistory.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace kwb::ui {
namespace {

const QString kRecentKey = QStringLiteral("sessions/recent");

QString canonical(const QString& dir) {
  const QFileInfo fi(dir);
  const QString c = fi.canonicalFilePath();
  return c.isEmpty() ? QDir::cleanPath(fi.absoluteFilePath()) : c;
}

// QSettings keys must not contain '/' from paths; a hash of the folder keeps one group per session.
QString viewGroup(const QString& sessionDir) {
  return QStringLiteral("sessionViews/") +
         QString::fromLatin1(
             QCryptographicHash::hash(canonical(sessionDir).toUtf8(), QCryptographicHash::Sha1)
                 .toHex()
                 .left(16));
}

}  // namespace

QStringList recentSessions(QSettings& settings) {
  QStringList out;
  for (const QString& d : settings.value(kRecentKey).toStringList())
    if (QFileInfo::exists(d + QStringLiteral("/session.json")) && !out.contains(d)) out << d;
  return out;
}

void rememberSession(QSettings& settings, const QString& dir) {
  const QString c = canonical(dir);
  QStringList list = settings.value(kRecentKey).toStringList();
  list.removeAll(c);
  list.prepend(c);
  while (list.size() > kMaxRecentSessions) list.removeLast();
  settings.setValue(kRecentKey, list);
}

void saveSessionViewState(QSettings& settings, const QString& sessionDir, const SessionViewState& state) {
  settings.beginGroup(viewGroup(sessionDir));
  settings.setValue(QStringLiteral("dir"), canonical(sessionDir));
  if (state.selectedIteration)
    settings.setValue(QStringLiteral("selectedIteration"), *state.selectedIteration);
  else
    settings.remove(QStringLiteral("selectedIteration"));
  settings.setValue(QStringLiteral("analysisTab"), state.analysisTab);
  settings.setValue(QStringLiteral("feedbackTab"), state.feedbackTab);
  settings.endGroup();
}

std::optional<SessionViewState> loadSessionViewState(QSettings& settings, const QString& sessionDir) {
  settings.beginGroup(viewGroup(sessionDir));
  std::optional<SessionViewState> out;
  if (settings.contains(QStringLiteral("dir"))) {
    SessionViewState s;
    bool ok = false;
    const int sel = settings.value(QStringLiteral("selectedIteration")).toInt(&ok);
    if (ok) s.selectedIteration = sel;
    s.analysisTab = settings.value(QStringLiteral("analysisTab"), 0).toInt();
    s.feedbackTab = settings.value(QStringLiteral("feedbackTab"), 0).toInt();
    out = s;
  }
  settings.endGroup();
  return out;
}

}  // namespace kwb::ui
