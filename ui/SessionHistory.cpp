// SPDX-License-Identifier: MIT
#include "ui/SessionHistory.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <array>

#include "core/agent/SessionSummary.h"

namespace kwb::ui {
namespace {

QString recentKey() {
  return QStringLiteral("sessions/recent");
}

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

QString tr(const char* text) {
  return QCoreApplication::translate("kwb::ui::SessionHistory", text);
}

// Failing verdicts from the closest to a working kernel to the farthest, for "best: …".
std::optional<Verdict> bestFailingVerdict(const Session& s) {
  constexpr std::array order = {Verdict::WrongAnswer, Verdict::RuntimeError, Verdict::Timeout,
                                Verdict::CompileError, Verdict::Rejected};
  for (Verdict v : order)
    for (const auto& it : s.iterations)
      if (it.verdict == v) return v;
  return std::nullopt;
}

}  // namespace

SessionSummaryLine summarizeSession(const Session& s, const QDateTime& lastUsed) {
  SessionSummaryLine out;
  out.task = QString::fromStdString(s.task.name);
  out.iterations = static_cast<int>(s.iterations.size());
  out.lastUsed = lastUsed;
  if (const auto best = bestPassingIteration(s)) {
    const Iteration* it = s.findIteration(*best);
    const auto base = sessionBaselineUs(s);
    if (it && it->profile && it->profile->totalUs > 0 && base)
      out.best = tr("pass, %1× the baseline").arg(*base / it->profile->totalUs, 0, 'f', 2);
    else
      out.best = tr("pass");
  } else if (const auto v = bestFailingVerdict(s)) {
    out.best = tr("best: %1").arg(QString::fromUtf8(verdictName(*v).data()));
  }
  return out;
}

QString RecentSession::label() const {
  if (!summary) return QDir(dir).dirName();
  QStringList parts;
  parts << (summary->task.isEmpty() ? QDir(dir).dirName() : summary->task);
  parts << (summary->iterations == 1 ? tr("1 iteration") : tr("%1 iterations").arg(summary->iterations));
  if (!summary->best.isEmpty()) parts << summary->best;
  if (summary->lastUsed.isValid())
    parts << summary->lastUsed.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
  return parts.join(QStringLiteral(" · "));
}

QStringList recentSessions(QSettings& settings) {
  QStringList out;
  for (const QString& d : settings.value(recentKey()).toStringList())
    if (QFileInfo::exists(d + QStringLiteral("/session.json")) && !out.contains(d)) out << d;
  return out;
}

QList<RecentSession> recentSessionEntries(QSettings& settings) {
  QList<RecentSession> out;
  for (const QString& d : recentSessions(settings)) {
    RecentSession r;
    r.dir = d;
    settings.beginGroup(viewGroup(d) + QStringLiteral("/summary"));
    if (settings.contains(QStringLiteral("task"))) {
      SessionSummaryLine s;
      s.task = settings.value(QStringLiteral("task")).toString();
      s.iterations = settings.value(QStringLiteral("iterations"), 0).toInt();
      s.best = settings.value(QStringLiteral("best")).toString();
      s.lastUsed = settings.value(QStringLiteral("lastUsed")).toDateTime();
      r.summary = s;
    }
    settings.endGroup();
    out << r;
  }
  return out;
}

void rememberSession(QSettings& settings, const QString& dir) {
  const QString c = canonical(dir);
  QStringList list = settings.value(recentKey()).toStringList();
  list.removeAll(c);
  list.prepend(c);
  while (list.size() > kMaxRecentSessions) list.removeLast();
  settings.setValue(recentKey(), list);
}

void saveSessionSummary(QSettings& settings, const QString& sessionDir, const SessionSummaryLine& summary) {
  settings.beginGroup(viewGroup(sessionDir) + QStringLiteral("/summary"));
  settings.setValue(QStringLiteral("task"), summary.task);
  settings.setValue(QStringLiteral("iterations"), summary.iterations);
  settings.setValue(QStringLiteral("best"), summary.best);
  settings.setValue(QStringLiteral("lastUsed"), summary.lastUsed);
  settings.endGroup();
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
  settings.setValue(QStringLiteral("inlineDiff"), state.inlineDiff);
  settings.setValue(QStringLiteral("elapsedMs"), state.elapsedMs);
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
    s.inlineDiff = settings.value(QStringLiteral("inlineDiff"), false).toBool();
    s.elapsedMs = std::max<qint64>(0, settings.value(QStringLiteral("elapsedMs"), 0).toLongLong());
    out = s;
  }
  settings.endGroup();
  return out;
}

void saveSessionRemoteHost(QSettings& settings, const QString& sessionDir, const QString& url) {
  settings.beginGroup(viewGroup(sessionDir));
  if (url.isEmpty())
    settings.remove(QStringLiteral("remoteHost"));
  else
    settings.setValue(QStringLiteral("remoteHost"), url);
  settings.endGroup();
}

QString loadSessionRemoteHost(QSettings& settings, const QString& sessionDir) {
  settings.beginGroup(viewGroup(sessionDir));
  QString url = settings.value(QStringLiteral("remoteHost")).toString();
  settings.endGroup();
  return url;
}

}  // namespace kwb::ui
