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
  // "2 errors, 1 warning", and "3 of 7 shown (hidden: compiler)" while a source is unchecked.
  QString summaryText() const;
  // The checkbox that shows or hides one source's rows ("compiler", "emulator", …), for tests.
  QCheckBox* sourceBox(const QString& source) const;

 signals:
  void jumpRequested(const QString& file, int line, int column);

 private:
  void applyFilter();
  void refreshSummary();
  int errors_ = 0;
  int warnings_ = 0;
  DiagnosticsModel* model_;
  DiagnosticsFilterModel* filter_;
  QTableView* table_;
  QLabel* summary_;
  std::vector<QCheckBox*> sourceBoxes_;
};

}  // namespace kwb::ui
