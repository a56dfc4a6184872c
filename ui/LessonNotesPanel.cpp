// SPDX-License-Identifier: MIT
#include "ui/LessonNotesPanel.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace kwb::ui {
namespace {

QString expectationText(const LessonExpectation& e) {
  QStringList parts;
  if (e.verdict)
    parts << QObject::tr("verdict <b>%1</b>").arg(QString::fromStdString(*e.verdict).toHtmlEscaped());
  else if (e.fails)
    parts << QObject::tr("the candidate <b>fails</b>");
  if (!e.categories.empty()) {
    QStringList cats;
    for (const auto& c : e.categories)
      cats << QStringLiteral("<code>%1</code>").arg(QString::fromStdString(c).toHtmlEscaped());
    parts << QObject::tr("diagnostics %1").arg(cats.join(QStringLiteral(", ")));
  }
  if (e.fasterThanPrevious) parts << QObject::tr("faster than the previous step");
  return parts.join(QStringLiteral(" · "));
}

}  // namespace

LessonNotesPanel::LessonNotesPanel(QWidget* parent) : QWidget(parent) {
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(6, 4, 6, 4);
  title_ = new QLabel(this);
  title_->setWordWrap(true);
  view_ = new QTextBrowser(this);
  view_->setOpenExternalLinks(false);
  auto* nav = new QHBoxLayout;
  previous_ = new QPushButton(tr("◂ Previous step"), this);
  next_ = new QPushButton(tr("Next step ▸"), this);
  previous_->setToolTip(tr("Show the previous step's iteration and explanation"));
  next_->setToolTip(
      tr("Show the next step; one not played yet is played on the emulator (one iteration), then the "
         "lesson pauses there"));
  nav->addWidget(previous_);
  nav->addStretch(1);
  nav->addWidget(next_);
  exerciseRow_ = new QWidget(this);
  auto* ex = new QGridLayout(exerciseRow_);
  ex->setContentsMargins(0, 0, 0, 0);
  auto* start = new QPushButton(tr("Start exercise"), exerciseRow_);
  start->setToolTip(tr("Put the exercise's starting kernel into the editor"));
  hint_ = new QPushButton(tr("Hint"), exerciseRow_);
  hint_->setToolTip(tr("Reveal the next hint of the ladder"));
  auto* solution = new QPushButton(tr("Show solution"), exerciseRow_);
  solution->setToolTip(tr("Put the reference solution into the editor"));
  check_ = new QPushButton(tr("Check my kernel"), exerciseRow_);
  check_->setToolTip(tr("Grade the editor's kernel: the verifier on every case, then the time target"));
  // Two rows: the panel is narrow beside the diff.
  ex->addWidget(start, 0, 0);
  ex->addWidget(hint_, 0, 1);
  ex->addWidget(solution, 1, 0);
  ex->addWidget(check_, 1, 1);
  grade_ = new QLabel(this);
  grade_->setWordWrap(true);
  hints_ = new QLabel(this);
  hints_->setWordWrap(true);
  hints_->setTextFormat(Qt::RichText);
  l->addWidget(title_);
  l->addWidget(view_, 1);
  l->addWidget(hints_);
  l->addWidget(exerciseRow_);
  l->addWidget(grade_);
  l->addLayout(nav);
  connect(start, &QPushButton::clicked, this, &LessonNotesPanel::exerciseStartRequested);
  connect(solution, &QPushButton::clicked, this, &LessonNotesPanel::exerciseSolutionRequested);
  connect(check_, &QPushButton::clicked, this, &LessonNotesPanel::exerciseCheckRequested);
  connect(hint_, &QPushButton::clicked, this, [this] {
    if (!lesson_.exercise || hintsShown_ >= static_cast<int>(lesson_.exercise->hints.size())) return;
    ++hintsShown_;
    hint_->setEnabled(hintsShown_ < static_cast<int>(lesson_.exercise->hints.size()));
    hints_->setText(hintsHtml());
    hints_->setVisible(true);
  });
  connect(previous_, &QPushButton::clicked, this, &LessonNotesPanel::previousRequested);
  connect(next_, &QPushButton::clicked, this, &LessonNotesPanel::nextRequested);
  setMinimumWidth(240);
}

void LessonNotesPanel::setLesson(const Lesson& lesson) {
  lesson_ = lesson;
  shown_.reset();
  hintsShown_ = 0;
  exerciseRow_->setVisible(lesson_.exercise.has_value());
  hint_->setEnabled(lesson_.exercise && !lesson_.exercise->hints.empty());
  grade_->clear();
  grade_->setVisible(false);
  hints_->setText(hintsHtml());
  hints_->setVisible(lesson_.exercise.has_value());
  title_->setText(tr("<b>Lesson:</b> %1").arg(QString::fromStdString(lesson.title).toHtmlEscaped()));
  showStep(std::nullopt, false);
}

void LessonNotesPanel::showStep(std::optional<int> index, bool ran) {
  const int n = static_cast<int>(lesson_.steps.size());
  shown_ = index;
  QString html;
  if (!index || *index < 0 || *index >= n) {
    html = QStringLiteral("<p>%1</p>").arg(QString::fromStdString(lesson_.summary).toHtmlEscaped());
    if (index && *index >= n)
      html += tr(
          "<p><i>This iteration is beyond the recorded lesson: your own edit or a new agent round.</i></p>");
    else
      html +=
          tr("<p><i>Press Start (F5) or Next step to play the lesson on the emulator; each step's "
             "explanation appears here beside its diff.</i></p>");
  } else {
    const LessonStep& s = lesson_.steps[static_cast<std::size_t>(*index)];
    html = tr("<h3>Step %1 of %2: %3</h3>")
               .arg(*index + 1)
               .arg(n)
               .arg(QString::fromStdString(s.title).toHtmlEscaped());
    html += QStringLiteral("<p>%1</p>").arg(QString::fromStdString(s.explanation).toHtmlEscaped());
    const QString expect = expectationText(s.expect);
    if (!expect.isEmpty()) html += tr("<p><b>What this step shows:</b> %1</p>").arg(expect);
    if (s.lookAt)
      html += tr("<p><b>Look at</b> the %1 panel: %2</p>")
                  .arg(QString::fromStdString(s.lookAt->panel).toHtmlEscaped(),
                       QString::fromStdString(s.lookAt->what).toHtmlEscaped());
    if (!ran) html += tr("<p><i>Not played yet.</i></p>");
    // The exercise follows the last step (docs/lessons.md, "Exercises"); its prompt is below.
    if (*index + 1 == n && lesson_.exercise)
      html +=
          tr("<p><i>Now the exercise below: Start exercise puts its kernel in the editor, Check my kernel "
             "grades your edit (also <code>kwb lesson check %1 --kernel FILE</code>).</i></p>")
              .arg(QString::fromStdString(lesson_.name).toHtmlEscaped());
  }
  view_->setHtml(html);
  previous_->setEnabled(index && *index > 0);
  next_->setEnabled(!index || *index + 1 < n);
}

QString LessonNotesPanel::hintsHtml() const {
  QString html;
  if (!lesson_.exercise) return html;
  html += tr("<b>Exercise:</b> %1").arg(QString::fromStdString(lesson_.exercise->prompt).toHtmlEscaped());
  if (lesson_.exercise->targetUs)
    html +=
        tr("<p>Target: faster than %1 µs (the emulator's estimate).</p>").arg(*lesson_.exercise->targetUs);
  for (int k = 0; k < hintsShown_; ++k)
    html +=
        tr("<p><b>Hint %1:</b> %2</p>")
            .arg(k + 1)
            .arg(
                QString::fromStdString(lesson_.exercise->hints[static_cast<std::size_t>(k)]).toHtmlEscaped());
  return html;
}

void LessonNotesPanel::showGrade(const QString& summary, bool passed) {
  grade_->setText((passed ? tr("✓ ") : tr("✗ ")) + summary);
  grade_->setVisible(true);
  setChecking(false);
}

void LessonNotesPanel::setChecking(bool checking) {
  check_->setEnabled(!checking);
  if (checking) {
    grade_->setText(tr("Grading on the emulator…"));
    grade_->setVisible(true);
  }
}

QString LessonNotesPanel::gradeText() const {
  return grade_->text();
}

QString LessonNotesPanel::text() const {
  return QString::fromStdString(lesson_.title) + QLatin1Char('\n') + view_->toPlainText() +
         QLatin1Char('\n') + hints_->text();
}

}  // namespace kwb::ui
