// SPDX-License-Identifier: MIT
#pragma once
// A learner's progress through the lessons: which lessons were played to their last step and which
// exercises were solved, kept in the user's settings (QSettings group "lessons"; docs/lessons.md,
// "Progress"). Read and written on the GUI thread: QSettings keeps them in memory and syncs lazily.

#include <QString>
#include <QStringList>

namespace kwb::ui {

class LessonProgress {
 public:
  bool lessonCompleted(const QString& lesson) const;
  bool exerciseSolved(const QString& lesson) const;
  void markLessonCompleted(const QString& lesson);
  void markExerciseSolved(const QString& lesson);
  QStringList completedLessons() const;
  QStringList solvedExercises() const;
  // A chooser's mark for a lesson: "✓ " when completed, "" otherwise, plus " · exercise solved".
  QString badge(const QString& lesson) const;
};

}  // namespace kwb::ui
