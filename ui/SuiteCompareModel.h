// SPDX-License-Identifier: MIT
#pragma once
// Two suite runs side by side in the suite view (docs/suites.md, "The suite view"): the rows of
// core/suite's compareSuiteReports (every metric of the overall row and of each task both runs have),
// as group, metric, A, B and B - A. The comparison itself is core/suite's; this only shows it.

#include <QAbstractTableModel>

#include <nlohmann/json.hpp>

namespace kwb::ui {

class SuiteCompareModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { GroupColumn, MetricColumn, AColumn, BColumn, DeltaColumn, ColumnCount };
  // Sort key of a value cell: the number, or NaN when the run has none.
  static constexpr int ValueRole = Qt::UserRole + 1;

  explicit SuiteCompareModel(QObject* parent = nullptr);
  // `comparison`: compareSuiteReports' document. Rows that are not objects are skipped.
  void setComparison(const nlohmann::json& comparison);
  void clear();
  QString labelA() const { return labelA_; }
  QString labelB() const { return labelB_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    QString group, metric;
    nlohmann::json a, b, delta;
  };
  std::vector<Row> rows_;
  QString labelA_, labelB_;
};

}  // namespace kwb::ui
