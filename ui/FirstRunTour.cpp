// SPDX-License-Identifier: MIT
#include "ui/FirstRunTour.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace kwb::ui {
namespace {

constexpr QLatin1String kDoneKey("tour/done");

}  // namespace

bool FirstRunTour::done() {
  return QSettings().value(kDoneKey, false).toBool();
}

void FirstRunTour::setDone(bool isDone) {
  QSettings().setValue(kDoneKey, isDone);
}

FirstRunTour::FirstRunTour(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Tour of the workbench"));
  pages_ = {
      {tr("Welcome to Kernel Workbench"),
       tr("Here you and an LLM coding agent write Ascend C kernels together. Every candidate kernel is "
          "compiled, run on the built-in Ascend C emulator (no NPU needed), verified against the task's "
          "reference and profiled; the results go back to the agent and to you. This tour shows the "
          "panels, how to start a lesson and how to connect a model. Skip it at any time.")},
      {tr("The editor (left)"),
       tr("The kernel of the selected iteration. Edit it and press <b>Run this edit</b> to evaluate your "
          "version as a new iteration; select lines to lock them against the agent's changes.")},
      {tr("Iterations (bottom left)"),
       tr("The timeline of attempts: who wrote each one (agent, you, a replayed lesson), its verdict, its "
          "estimated time and speedup. Select two rows to diff them; right-click for roll back, accept, "
          "or <b>Make a lesson</b> from the selected iterations.")},
      {tr("Analysis (right)"),
       tr("<b>Profile</b>: the emulator's cost-model estimate and which pipe bounds it. <b>Pipeline "
          "trace</b>: one lane per pipe (MTE2 loads, V vector, MTE3 stores, S scalar). <b>Diff</b>: what "
          "changed between iterations, with the lesson notes beside it in teaching mode. "
          "<b>Constraints</b>: rules and parameters you pin for the agent.")},
      {tr("Feedback (bottom right)"),
       tr("<b>Diagnostics</b>: what the compiler, the emulator's checks (misaligned copies, missing sync, "
          "UB overflow, queue misuse, …) and the verifier found, each at its source line; double-click to "
          "jump there. <b>Conversation</b>: the prompts and the model's replies.")},
      {tr("Start a lesson"),
       tr("<b>Tools ▸ Lessons…</b> opens the course: twelve recorded repairs, from a first kernel to "
          "performance, replayed on the emulator. <b>Next step</b> in the lesson panel plays one step; its "
          "explanation says what to look at. Some lessons end with an exercise that the verifier grades "
          "(<b>Check my kernel</b>). A ✓ in the list marks the lessons you finished.")},
      {tr("Connect a provider"),
       tr("To work with a live model, open <b>Tools ▸ LLM provider settings…</b> and choose an "
          "OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, …) or the Anthropic Messages API, with its "
          "model and API key (or set the "
          "<code>KWB_LLM_*</code> environment variables). Then <b>Session ▸ New session…</b> on a task and "
          "<b>Start</b> (F5). Without a provider, lessons still work: they replay recorded replies.")},
  };
  auto* l = new QVBoxLayout(this);
  title_ = new QLabel(this);
  text_ = new QLabel(this);
  text_->setWordWrap(true);
  text_->setTextFormat(Qt::RichText);
  text_->setMinimumSize(460, 150);
  text_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  counter_ = new QLabel(this);
  auto* buttons = new QHBoxLayout;
  skip_ = new QPushButton(tr("Skip tour"), this);
  back_ = new QPushButton(tr("◂ Back"), this);
  next_ = new QPushButton(tr("Next ▸"), this);
  next_->setDefault(true);
  buttons->addWidget(skip_);
  buttons->addWidget(counter_);
  buttons->addStretch(1);
  buttons->addWidget(back_);
  buttons->addWidget(next_);
  l->addWidget(title_);
  l->addWidget(text_, 1);
  l->addLayout(buttons);
  // Skipping and finishing both count as done: the tour is offered once, then stays in Help.
  connect(skip_, &QPushButton::clicked, this, [this] {
    setDone(true);
    reject();
  });
  connect(back_, &QPushButton::clicked, this, [this] { showPage(page_ - 1); });
  connect(next_, &QPushButton::clicked, this, [this] {
    if (page_ + 1 < pageCount()) {
      showPage(page_ + 1);
      return;
    }
    setDone(true);
    accept();
  });
  showPage(0);
}

QString FirstRunTour::pageTitle() const {
  return pages_[static_cast<std::size_t>(page_)].title;
}

QString FirstRunTour::pageText() const {
  return pages_[static_cast<std::size_t>(page_)].text;
}

void FirstRunTour::showPage(int index) {
  if (index < 0 || index >= pageCount()) return;
  page_ = index;
  title_->setText(QStringLiteral("<h2>%1</h2>").arg(pageTitle().toHtmlEscaped()));
  text_->setText(pageText());
  counter_->setText(tr("%1 of %2").arg(page_ + 1).arg(pageCount()));
  back_->setEnabled(page_ > 0);
  next_->setText(page_ + 1 < pageCount() ? tr("Next ▸") : tr("Done"));
}

}  // namespace kwb::ui
