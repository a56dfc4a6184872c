// SPDX-License-Identifier: MIT
#include "ui/LessonNotesPanel.h"

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
  l->addWidget(title_);
  l->addWidget(view_, 1);
  l->addLayout(nav);
  connect(previous_, &QPushButton::clicked, this, &LessonNotesPanel::previousRequested);
  connect(next_, &QPushButton::clicked, this, &LessonNotesPanel::nextRequested);
  setMinimumWidth(240);
}

void LessonNotesPanel::setLesson(const Lesson& lesson) {
  lesson_ = lesson;
  shown_.reset();
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
    if (!ran) html += tr("<p><i>Not played yet.</i></p>");
  }
  view_->setHtml(html);
  previous_->setEnabled(index && *index > 0);
  next_->setEnabled(!index || *index + 1 < n);
}

QString LessonNotesPanel::text() const {
  return QString::fromStdString(lesson_.title) + QLatin1Char('\n') + view_->toPlainText();
}

}  // namespace kwb::ui
