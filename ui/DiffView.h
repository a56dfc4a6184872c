// SPDX-License-Identifier: MIT
#pragma once
// Two iterations side by side (or inline): changed lines highlighted, rows aligned, scrolling linked,
// and their metrics compared above the code.

#include <QWidget>
#include <optional>

#include "core/model/Iteration.h"

class QsciScintilla;
class QTableWidget;
class QStackedWidget;
class QLabel;
class QComboBox;

namespace kwb::ui {

class DiffView : public QWidget {
  Q_OBJECT
 public:
  explicit DiffView(QWidget* parent = nullptr);

  // Compares `left` (usually the parent) with `right`. The file shown is `fileName` when both have it,
  // else the first file of `right`.
  void setIterations(const Iteration& left, const Iteration& right, std::optional<double> baselineUs = {});
  // The first iteration against the task's starting point (no kernel yet: every line is new).
  void setAgainstStart(const Iteration& right, std::optional<double> baselineUs = {});
  void clear();
  void setInline(bool inlineMode);
  bool isInline() const;

  // For tests and screenshots.
  int changedRowCount() const { return changedRows_; }
  QString inlineText() const;
  QTableWidget* metricsTable() const { return metrics_; }
  // The iteration ids compared (left 0: the task's starting point); nullopt when cleared.
  std::optional<std::pair<int, int>> comparedIds() const { return compared_; }
  QString title() const;

 private:
  void fillMetrics(const Iteration& left, const Iteration& right, std::optional<double> baselineUs);

  QLabel* title_;
  QComboBox* mode_;
  QTableWidget* metrics_;
  QStackedWidget* stack_;
  QsciScintilla* leftEditor_;
  QsciScintilla* rightEditor_;
  QsciScintilla* inlineEditor_;
  int changedRows_ = 0;
  std::optional<std::pair<int, int>> compared_;
};

}  // namespace kwb::ui
