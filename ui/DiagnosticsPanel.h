// SPDX-License-Identifier: MIT
#pragma once
// Sortable, source-filterable list of the selected iteration's diagnostics; activating a row asks the
// editor to jump to its line.

#include <QWidget>
#include <vector>

#include "core/model/Diagnostic.h"

class QTableView;
class QCheckBox;
class QLabel;

namespace kwb::ui {

class DiagnosticsModel;
class DiagnosticsFilterModel;

class DiagnosticsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DiagnosticsPanel(QWidget* parent = nullptr);
  void setDiagnostics(std::vector<Diagnostic> diagnostics);
  DiagnosticsModel* model() const { return model_; }
  DiagnosticsFilterModel* filterModel() const { return filter_; }
  int visibleCount() const;

 signals:
  void jumpRequested(const QString& file, int line, int column);

 private:
  void applyFilter();
  DiagnosticsModel* model_;
  DiagnosticsFilterModel* filter_;
  QTableView* table_;
  QLabel* summary_;
  std::vector<QCheckBox*> sourceBoxes_;
};

}  // namespace kwb::ui
