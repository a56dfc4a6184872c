// SPDX-License-Identifier: MIT
#pragma once
// Filters diagnostics by producer (compiler, emulator, verifier, sandbox, policy, ...) and sorts
// severity by rank rather than by name.

#include <QSet>
#include <QSortFilterProxyModel>

namespace kwb::ui {

class DiagnosticsFilterModel : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  explicit DiagnosticsFilterModel(QObject* parent = nullptr);
  // Empty set = show every source.
  void setVisibleSources(const QSet<QString>& sources);
  QSet<QString> visibleSources() const { return sources_; }

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

 private:
  QSet<QString> sources_;
};

}  // namespace kwb::ui
