// SPDX-License-Identifier: MIT
// Teaching mode's exercise and progress (docs/lessons.md): the exercise's kernels go into the editor,
// the editor's kernel is graded on a worker as the agent's candidates are, and lessons played to their
// last step and solved exercises are recorded in the user's settings (LessonProgress).
#include <unistd.h>

#include <QApplication>
#include <QFileDialog>
#include <QLabel>
#include <QPointer>
#include <QStatusBar>
#include <QThreadPool>
#include <atomic>
#include <filesystem>

#include "core/agent/LessonDraft.h"
#include "core/agent/LessonExercise.h"
#include "ui/KernelEditor.h"
#include "ui/LessonNotesPanel.h"
#include "ui/LessonProgress.h"
#include "ui/MainWindow.h"

namespace kwb::ui {

void MainWindow::noteLessonProgress(const Iteration& iteration) {
  if (!lesson_ || lesson_->steps.empty() || !isFinal(iteration.state)) return;
  if (lessonStepOf(iteration.id) == static_cast<int>(lesson_->steps.size()) - 1)
    LessonProgress().markLessonCompleted(QString::fromStdString(lesson_->name));
}

void MainWindow::startExercise() {
  if (!lesson_ || !lesson_->exercise) return;
  selected_.reset();
  editor_->setSource(QString::fromStdString(lesson_->exercise->startKernel));
  shownFile_ = QStringLiteral("kernel.cpp");
  editorHeader_->setText(tr("<b>Exercise</b> · %1 · edit the kernel, then Check my kernel")
                             .arg(QString::fromStdString(lesson_->title).toHtmlEscaped()));
}

void MainWindow::showExerciseSolution() {
  if (!lesson_ || !lesson_->exercise) return;
  selected_.reset();
  editor_->setSource(QString::fromStdString(lesson_->exercise->solutionKernel));
  shownFile_ = QStringLiteral("kernel.cpp");
  editorHeader_->setText(tr("<b>Exercise</b> · the reference solution (spoiler)"));
}

void MainWindow::checkExercise() {
  if (!lesson_ || !lesson_->exercise) return;
  lessonNotes_->setChecking(true);
  static std::atomic<int> counter{0};
  const std::filesystem::path work =
      std::filesystem::temp_directory_path() /
      ("kwb-exercise-" + lesson_->name + "-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
  // Compiling and running every case takes seconds: a worker grades, the window shows the result (it
  // may be gone by then).
  QPointer<MainWindow> self(this);
  QThreadPool::globalInstance()->start(
      [self, lesson = *lesson_, source = editor_->text().toStdString(), work] {
        bool passed = false;
        QString summary;
        try {
          BackendEvaluator evaluator("ascend-sim", "");
          const ExerciseGrade g = gradeExercise(lesson, source, evaluator, work);
          passed = g.passed;
          summary = QString::fromStdString(g.summary);
        } catch (const std::exception& e) {
          summary = tr("cannot grade: %1").arg(QString::fromUtf8(e.what()));
        }
        std::error_code ec;
        std::filesystem::remove_all(work, ec);
        QMetaObject::invokeMethod(
            qApp,
            [self, passed, summary, name = QString::fromStdString(lesson.name)] {
              if (!self) return;
              if (passed) LessonProgress().markExerciseSolved(name);
              self->lessonNotes_->showGrade(summary, passed);
              self->statusBar()->showMessage(tr("Exercise: %1").arg(summary), 8000);
              emit self->exerciseGraded(passed, summary);
            },
            Qt::QueuedConnection);
      });
}

void MainWindow::askMakeLessonDraft(const std::vector<int>& iterationIds) {
  const QString dir = QFileDialog::getSaveFileName(
      this, tr("New lesson folder"), QString::fromStdString(session_.task.name) + QStringLiteral("-lesson"),
      QString(), nullptr, QFileDialog::ShowDirsOnly);
  if (!dir.isEmpty()) makeLessonDraft(iterationIds, dir);
}

void MainWindow::makeLessonDraft(const std::vector<int>& iterationIds, const QString& outDir) {
  statusBar()->showMessage(tr("Writing a lesson draft to %1…").arg(outDir));
  QPointer<MainWindow> self(this);
  // The draft copies kernels (and maybe the task folder): file I/O, so on a worker.
  QThreadPool::globalInstance()->start([self, session = session_, iterationIds, out = outDir.toStdString()] {
    bool ok = false;
    QString message;
    try {
      message = QString::fromStdString(writeLessonDraft(session, iterationIds, out).string());
      ok = true;
    } catch (const std::exception& e) {
      message = QString::fromUtf8(e.what());
    }
    // Posted to the GUI thread (qApp lives there, so the call is queued).
    QMetaObject::invokeMethod(qApp, [self, ok, message] {
      if (self) self->showLessonDraftResult(ok, message);
    });
  });
}

void MainWindow::showLessonDraftResult(bool ok, const QString& message) {
  statusBar()->showMessage(ok ? tr("Lesson draft written to %1: annotate its TODO fields, then "
                                   "open it with Tools ▸ Lessons")
                                    .arg(message)
                              : tr("Cannot make the lesson: %1").arg(message),
                           10000);
  emit lessonDraftWritten(ok, message);
}

}  // namespace kwb::ui
