// SPDX-License-Identifier: MIT
#pragma once
// Table model over the shared kwb::Diagnostic list of one iteration.

#include <QAbstractTableModel>
#include <vector>

#include "core/model/Diagnostic.h"
#include "ui/StatusIcons.h"

namespace kwb::ui {

class DiagnosticsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { SeverityColumn, CategoryColumn, SourceColumn, LocationColumn, MessageColumn, ColumnCount };
  // Roles beyond Qt's: the raw fields, for filtering, sorting and jump-to-line.
  enum Role { SourceRole = Qt::UserRole + 1, LineRole, FileRole, SeverityRankRole };

  explicit DiagnosticsModel(QObject* parent = nullptr);

  // The severity icons (none until set: this model does not depend on a widget style).
  void setIcons(StatusIcons icons);
  void setDiagnostics(std::vector<Diagnostic> diagnostics);
  const Diagnostic* diagnosticAt(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<Diagnostic> diagnostics_;
  StatusIcons icons_;
};

}  // namespace kwb::ui
