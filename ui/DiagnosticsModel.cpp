// SPDX-License-Identifier: MIT
#include "ui/DiagnosticsModel.h"

#include <QDir>
#include <QRegularExpression>

namespace kwb::ui {
namespace {

// Candidates are compiled and run in scratch folders (TempWorkDir), so tools report paths like
// /tmp/kwb-work-1a2b/0003/kernel.cpp. The engineer knows the file as kernel.cpp: show that.
QString withoutScratchPaths(QString text) {
  static const QRegularExpression scratch(
      QStringLiteral(R"((?:/tmp|/var/tmp|%1)(?:/[^\s:'"()\[\]]+)*/([^/\s:'"()\[\]]+))")
          .arg(QRegularExpression::escape(QDir::tempPath())));
  return text.replace(scratch, QStringLiteral("\\1"));
}

QString shownFile(const std::string& file) {
  const QString f = QString::fromStdString(file);
  // An absolute path is a tool's view of the scratch folder; candidate files are plain names.
  return f.startsWith(QLatin1Char('/')) ? f.section(QLatin1Char('/'), -1) : f;
}

}  // namespace

DiagnosticsModel::DiagnosticsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiagnosticsModel::setIcons(StatusIcons icons) {
  icons_ = std::move(icons);
  if (!diagnostics_.empty())
    emit dataChanged(index(0, SeverityColumn), index(rowCount() - 1, SeverityColumn), {Qt::DecorationRole});
}

void DiagnosticsModel::setDiagnostics(std::vector<Diagnostic> diagnostics) {
  beginResetModel();
  diagnostics_ = std::move(diagnostics);
  endResetModel();
}

const Diagnostic* DiagnosticsModel::diagnosticAt(int row) const {
  if (row < 0 || row >= int(diagnostics_.size())) return nullptr;
  return &diagnostics_[size_t(row)];
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(diagnostics_.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

static QString location(const Diagnostic& d) {
  QString s = shownFile(d.file);
  if (d.line > 0) s += QStringLiteral(":%1").arg(d.line);
  if (d.column > 0) s += QStringLiteral(":%1").arg(d.column);
  if (d.block) s += QStringLiteral(" [block %1]").arg(*d.block);
  return s;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= int(diagnostics_.size()) || index.column() >= ColumnCount) return {};
  const Diagnostic& d = diagnostics_[size_t(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case SeverityColumn:
          return QString::fromUtf8(toString(d.severity).data(), int(toString(d.severity).size()));
        case CategoryColumn:
          return QString::fromStdString(d.category);
        case SourceColumn:
          return QString::fromStdString(d.source);
        case LocationColumn:
          return location(d);
        case MessageColumn: {
          QString m = QString::fromStdString(d.message);
          if (d.api) m = QStringLiteral("%1: %2").arg(QString::fromStdString(*d.api), m);
          return withoutScratchPaths(m);
        }
      }
      return {};
    case Qt::ToolTipRole: {
      QString tip = QString::fromStdString(d.format());
      for (const auto& n : d.notes) tip += QStringLiteral("\nnote: ") + QString::fromStdString(n);
      if (!d.excerpt.empty()) tip += QStringLiteral("\n\n") + QString::fromStdString(d.excerpt);
      return withoutScratchPaths(tip);
    }
    case Qt::DecorationRole:
      if (index.column() != SeverityColumn) return {};
      switch (d.severity) {
        case Severity::Note:
          return icons_.note;
        case Severity::Warning:
          return icons_.warning;
        default:
          return icons_.error;
      }
    case SourceRole:
      return QString::fromStdString(d.source);
    case LineRole:
      return d.line;
    case FileRole:
      return shownFile(d.file);
    case SeverityRankRole:
      return int(d.severity);
    default:
      return {};
  }
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case SeverityColumn:
      return tr("Severity");
    case CategoryColumn:
      return tr("Category");
    case SourceColumn:
      return tr("Source");
    case LocationColumn:
      return tr("Location");
    case MessageColumn:
      return tr("Message");
  }
  return {};
}

}  // namespace kwb::ui
