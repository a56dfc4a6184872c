// SPDX-License-Identifier: MIT
#include "ui/LessonProgress.h"

#include <QObject>
#include <QSettings>

namespace kwb::ui {
namespace {

constexpr QLatin1String kCompleted("lessons/completed");
constexpr QLatin1String kSolved("lessons/exercisesSolved");

void addTo(const QString& key, const QString& lesson) {
  QSettings s;
  QStringList list = s.value(key).toStringList();
  if (list.contains(lesson)) return;
  list << lesson;
  s.setValue(key, list);
}

}  // namespace

bool LessonProgress::lessonCompleted(const QString& lesson) const {
  return completedLessons().contains(lesson);
}

bool LessonProgress::exerciseSolved(const QString& lesson) const {
  return solvedExercises().contains(lesson);
}

void LessonProgress::markLessonCompleted(const QString& lesson) {
  addTo(kCompleted, lesson);
}

void LessonProgress::markExerciseSolved(const QString& lesson) {
  addTo(kSolved, lesson);
}

QStringList LessonProgress::completedLessons() const {
  return QSettings().value(kCompleted).toStringList();
}

QStringList LessonProgress::solvedExercises() const {
  return QSettings().value(kSolved).toStringList();
}

QString LessonProgress::badge(const QString& lesson) const {
  QString b = lessonCompleted(lesson) ? QStringLiteral("✓ ") : QString();
  if (exerciseSolved(lesson)) b += QObject::tr("[exercise solved] ");
  return b;
}

}  // namespace kwb::ui
