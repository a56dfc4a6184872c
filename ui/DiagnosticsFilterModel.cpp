// SPDX-License-Identifier: MIT
#include "ui/DiagnosticsFilterModel.h"

#include "ui/DiagnosticsModel.h"

namespace kwb::ui {

DiagnosticsFilterModel::DiagnosticsFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void DiagnosticsFilterModel::setVisibleSources(const QSet<QString>& sources) {
  sources_ = sources;
  invalidateFilter();
}

bool DiagnosticsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  if (sources_.isEmpty()) return true;
  const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
  return sources_.contains(idx.data(DiagnosticsModel::SourceRole).toString());
}

bool DiagnosticsFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  if (left.column() == DiagnosticsModel::SeverityColumn)
    return left.data(DiagnosticsModel::SeverityRankRole).toInt() <
           right.data(DiagnosticsModel::SeverityRankRole).toInt();
  if (left.column() == DiagnosticsModel::LocationColumn) {
    const auto lf = left.data(DiagnosticsModel::FileRole).toString();
    const auto rf = right.data(DiagnosticsModel::FileRole).toString();
    if (lf != rf) return lf < rf;
    return left.data(DiagnosticsModel::LineRole).toInt() < right.data(DiagnosticsModel::LineRole).toInt();
  }
  return QSortFilterProxyModel::lessThan(left, right);
}

}  // namespace kwb::ui
