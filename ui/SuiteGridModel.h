// SPDX-License-Identifier: MIT
#pragma once
// The suite view's grid (docs/suites.md, "The suite view"): one row per task of the plan, one column per
// sample with its verdict and its speedups against the expert candidate and the task's stated baseline,
// then the task's summary columns from core/suite's metrics (correct@k for each k the sample count
// allows, fast_1 against the expert and against the task baseline). Summary columns nothing could fill
// (no task states a baseline, no expert was measured) are left out. After the tasks, one row per
// problem met reading the folder (ProblemRole), its text in the first sample column.

#include <QAbstractTableModel>
#include <vector>

#include "ui/SuiteSnapshot.h"

namespace kwb::ui {

class SuiteGridModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Role {
    VerdictRole = Qt::UserRole + 1,  // SampleVerdict as an int (sample cells only)
    SessionDirRole,                  // the sample's session folder; empty when it has none yet
    ProblemRole,                     // true on a problem row
  };
  // What a summary column shows.
  struct SummaryColumn {
    enum class Kind { CorrectAtK, FastVsExpert, FastVsBaseline } kind;
    double parameter;  // k or p
  };

  explicit SuiteGridModel(QObject* parent = nullptr);

  // Replaces what is shown (a model reset: the columns follow the plan).
  void setSnapshot(SuiteSnapshot snapshot);
  const SuiteSnapshot& snapshot() const { return snapshot_; }

  int sampleCount() const;
  int taskCount() const { return int(snapshot_.cells.size()); }
  // The column of sample k (1-based), and the sample a column shows (0: not a sample column).
  static int columnOfSample(int sample) { return sample; }
  int sampleOfColumn(int column) const;
  const std::vector<SummaryColumn>& summaryColumns() const { return summary_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

 private:
  QVariant sampleData(const SuiteCell& cell, int role) const;
  QVariant summaryData(int task, const SummaryColumn& column, int role) const;

  SuiteSnapshot snapshot_;
  std::vector<SummaryColumn> summary_;
};

}  // namespace kwb::ui
