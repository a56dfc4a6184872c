// SPDX-License-Identifier: MIT
#pragma once
// Teaching mode: the explanation of a lesson step shown beside the diff of the iteration that step
// produced, with Previous/Next to walk through the lesson. The window maps iterations to steps (the
// k-th replayed iteration is step k) and tells the panel which step is shown.

#include <QWidget>
#include <optional>

#include "core/agent/Lesson.h"

class QLabel;
class QPushButton;
class QTextBrowser;

namespace kwb::ui {

class LessonNotesPanel : public QWidget {
  Q_OBJECT
 public:
  explicit LessonNotesPanel(QWidget* parent = nullptr);

  void setLesson(const Lesson& lesson);
  // Shows step `index` (0-based); `ran` is false when that step has no iteration yet. An index past the
  // lesson (an iteration the engineer added) shows the lesson summary with a note. A lesson with an
  // exercise gets an exercise row: load the starting kernel, reveal the next hint, reveal the solution,
  // check the editor's kernel (the window grades it on a worker and calls showGrade).
  void showStep(std::optional<int> index, bool ran);
  const Lesson& lesson() const { return lesson_; }
  std::optional<int> shownStep() const { return shown_; }
  QString text() const;
  int hintsShown() const { return hintsShown_; }
  void showGrade(const QString& summary, bool passed);
  void setChecking(bool checking);
  QString gradeText() const;

 signals:
  void previousRequested();
  void nextRequested();
  void exerciseStartRequested();
  void exerciseSolutionRequested();
  void exerciseCheckRequested();

 private:
  Lesson lesson_;
  std::optional<int> shown_;
  QLabel* title_;
  QTextBrowser* view_;
  QPushButton* previous_;
  QPushButton* next_;
  QWidget* exerciseRow_;
  QPushButton* hint_;
  QPushButton* check_;
  QLabel* grade_;
  QLabel* hints_;
  int hintsShown_ = 0;
  QString hintsHtml() const;

 public:
  QPushButton* hintButton() const { return hint_; }
  QPushButton* checkButton() const { return check_; }
};

}  // namespace kwb::ui
