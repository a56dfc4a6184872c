// SPDX-License-Identifier: MIT
#include "ui/SuiteGridModel.h"

#include <QColor>
#include <algorithm>

#include "core/suite/SuiteMetrics.h"
#include "ui/Plural.h"

namespace kwb::ui {

namespace {

QString percent(const std::optional<double>& v) {
  return v ? QStringLiteral("%1%").arg(*v * 100.0, 0, 'f', 0) : QStringLiteral("—");
}

QString times(double v) {
  return QStringLiteral("%1×").arg(v, 0, 'f', 2);
}

const suite::GroupMetrics* taskMetrics(const suite::SuiteReport& r, const std::string& task) {
  for (const auto& g : r.metrics.tasks)
    if (g.name == task) return &g;
  return nullptr;
}

QColor verdictColor(SampleVerdict v) {
  switch (v) {
    case SampleVerdict::Pass:
      return {0xd4, 0xf0, 0xd4};
    case SampleVerdict::Fail:
      return {0xf8, 0xd8, 0xd8};
    case SampleVerdict::CompileError:
      return {0xf6, 0xe0, 0xc4};
    case SampleVerdict::Running:
      return {0xf4, 0xf0, 0xc8};
    case SampleVerdict::Unfinished:
      return {0xe4, 0xe4, 0xe4};
    case SampleVerdict::Error:
      return {0xf0, 0xa8, 0xa8};
    case SampleVerdict::NotStarted:
      break;
  }
  return {};
}

}  // namespace

SuiteGridModel::SuiteGridModel(QObject* parent) : QAbstractTableModel(parent) {}

void SuiteGridModel::setSnapshot(SuiteSnapshot snapshot) {
  beginResetModel();
  snapshot_ = std::move(snapshot);
  summary_.clear();
  if (snapshot_.report) {
    const suite::SuiteReport& r = *snapshot_.report;
    for (int k : r.metrics.options.ks)
      if (k <= r.plan.samples) summary_.push_back({SummaryColumn::Kind::CorrectAtK, double(k)});
    const bool anyExpert = !r.expertUs.empty();
    const bool anyBaseline = std::any_of(r.samples.begin(), r.samples.end(),
                                         [](const auto& s) { return s.taskBaselineUs.has_value(); });
    if (anyExpert) summary_.push_back({SummaryColumn::Kind::FastVsExpert, 1.0});
    if (anyBaseline) summary_.push_back({SummaryColumn::Kind::FastVsBaseline, 1.0});
  }
  endResetModel();
}

int SuiteGridModel::sampleCount() const {
  return snapshot_.report ? snapshot_.report->plan.samples : 0;
}

int SuiteGridModel::sampleOfColumn(int column) const {
  return column >= 1 && column <= sampleCount() ? column : 0;
}

int SuiteGridModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return taskCount() + int(snapshot_.problems.size()) + (snapshot_.error.empty() ? 0 : 1);
}

int SuiteGridModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  // The task column and, for a problem row, at least one column for its text.
  return 1 + std::max(1, sampleCount()) + int(summary_.size());
}

Qt::ItemFlags SuiteGridModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

QVariant SuiteGridModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
  if (role == Qt::DisplayRole) {
    if (section == 0) return tr("Task");
    if (sampleOfColumn(section) > 0) return tr("sample %1").arg(section);
    const int s = section - 1 - std::max(1, sampleCount());
    if (s < 0) return QString();
    const SummaryColumn& c = summary_[std::size_t(s)];
    switch (c.kind) {
      case SummaryColumn::Kind::CorrectAtK:
        return tr("correct@%1").arg(int(c.parameter));
      case SummaryColumn::Kind::FastVsExpert:
        return tr("fast_%1 vs expert").arg(QString::fromStdString(suite::formatP(c.parameter)));
      case SummaryColumn::Kind::FastVsBaseline:
        return tr("fast_%1 vs baseline").arg(QString::fromStdString(suite::formatP(c.parameter)));
    }
  }
  if (role == Qt::ToolTipRole && section > std::max(1, sampleCount())) {
    return tr(
        "correct@k: the unbiased pass@k estimate over the task's samples; fast_p: the share of "
        "samples whose fastest correct kernel is more than p times faster than the baseline "
        "(docs/suites.md, \"Metrics\")");
  }
  return {};
}

QVariant SuiteGridModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  const int row = index.row();
  const int col = index.column();
  if (row >= taskCount()) {
    const std::size_t p = std::size_t(row - taskCount());
    const std::string& text = snapshot_.error.empty() ? snapshot_.problems[p] : snapshot_.error;
    if (role == ProblemRole) return true;
    if (col == 0 && role == Qt::DisplayRole) return tr("⚠ problem");
    if (col == 1 && (role == Qt::DisplayRole || role == Qt::ToolTipRole)) return QString::fromStdString(text);
    if (role == Qt::BackgroundRole) return verdictColor(SampleVerdict::Error);
    if (role == Qt::ForegroundRole) return QColor(Qt::black);
    return {};
  }
  if (role == ProblemRole) return false;
  const suite::SuiteReport& r = *snapshot_.report;
  if (col == 0) {
    if (role == Qt::DisplayRole) return QString::fromStdString(r.plan.tasks[std::size_t(row)].name);
    if (role == Qt::ToolTipRole) return QString::fromStdString(r.plan.tasks[std::size_t(row)].dir.string());
    return {};
  }
  if (const int k = sampleOfColumn(col); k > 0)
    return sampleData(snapshot_.cells[std::size_t(row)][std::size_t(k - 1)], role);
  const int s = col - 1 - std::max(1, sampleCount());
  if (s < 0) return {};
  return summaryData(row, summary_[std::size_t(s)], role);
}

QVariant SuiteGridModel::sampleData(const SuiteCell& c, int role) const {
  switch (role) {
    case Qt::DisplayRole: {
      QString text = QString::fromUtf8(verdictName(c.verdict));
      if (c.verdict == SampleVerdict::Running || c.verdict == SampleVerdict::Unfinished)
        text += QStringLiteral(", %1").arg(countOf(c.iterations, tr("iteration"), tr("iterations")));
      QStringList speed;
      if (c.speedupVsExpert) speed << tr("%1 expert").arg(times(*c.speedupVsExpert));
      if (c.speedupVsBaseline) speed << tr("%1 baseline").arg(times(*c.speedupVsBaseline));
      if (!speed.isEmpty()) text += QLatin1Char('\n') + speed.join(QStringLiteral(" · "));
      return text;
    }
    case Qt::ToolTipRole: {
      QStringList lines;
      lines << QString::fromUtf8(verdictName(c.verdict));
      if (c.verdict == SampleVerdict::Error) lines << QString::fromStdString(c.problem);
      if (c.verdict == SampleVerdict::Running)
        lines << tr("its session is being written; the grid refreshes as it goes");
      if (c.verdict == SampleVerdict::Unfinished)
        lines << tr("no .done.json and no writer: stopped or killed; kwb suite run --resume continues it");
      if (c.bestUs)
        lines << tr("fastest correct kernel: %1 us (emulator estimate unless the header says "
                    "otherwise)")
                     .arg(*c.bestUs, 0, 'f', 2);
      if (c.speedupVsExpert) lines << tr("%1 the expert candidate's time").arg(times(*c.speedupVsExpert));
      if (c.speedupVsBaseline) lines << tr("%1 the task's stated baseline").arg(times(*c.speedupVsBaseline));
      if (c.verdict != SampleVerdict::NotStarted && c.verdict != SampleVerdict::Error)
        lines << tr("%1, %2").arg(
            countOf(c.iterations, tr("evaluated iteration"), tr("evaluated iterations")),
            countOf(c.tokens, tr("token"), tr("tokens")));
      if (!c.finishReason.empty()) lines << tr("ended: %1").arg(QString::fromStdString(c.finishReason));
      if (c.verdict != SampleVerdict::NotStarted)
        lines << tr("double-click opens %1").arg(QString::fromStdString(c.sessionDir.string()));
      return lines.join(QLatin1Char('\n'));
    }
    case Qt::BackgroundRole: {
      const QColor color = verdictColor(c.verdict);
      return color.isValid() ? QVariant(color) : QVariant();
    }
    case Qt::ForegroundRole:
      return c.verdict == SampleVerdict::NotStarted ? QVariant() : QVariant(QColor(Qt::black));
    case Qt::TextAlignmentRole:
      return int(Qt::AlignCenter);
    case VerdictRole:
      return int(c.verdict);
    case SessionDirRole:
      return c.verdict == SampleVerdict::NotStarted ? QString()
                                                    : QString::fromStdString(c.sessionDir.string());
    default:
      return {};
  }
}

QVariant SuiteGridModel::summaryData(int task, const SummaryColumn& column, int role) const {
  const suite::SuiteReport& r = *snapshot_.report;
  const suite::GroupMetrics* g = taskMetrics(r, r.plan.tasks[std::size_t(task)].name);
  if (role == Qt::TextAlignmentRole) return int(Qt::AlignCenter);
  if (role != Qt::DisplayRole) return {};
  if (!g) return QStringLiteral("—");  // no sample of the task has a session yet
  switch (column.kind) {
    case SummaryColumn::Kind::CorrectAtK: {
      const auto it = g->correctAtK.find(int(column.parameter));
      return percent(it == g->correctAtK.end() ? std::nullopt : it->second);
    }
    case SummaryColumn::Kind::FastVsExpert: {
      const auto it = g->fastVsExpert.find(column.parameter);
      return percent(it == g->fastVsExpert.end() ? std::nullopt : it->second);
    }
    case SummaryColumn::Kind::FastVsBaseline: {
      const auto it = g->fastVsTask.find(column.parameter);
      return percent(it == g->fastVsTask.end() ? std::nullopt : it->second);
    }
  }
  return {};
}

}  // namespace kwb::ui
