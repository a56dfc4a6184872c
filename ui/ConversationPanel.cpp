// SPDX-License-Identifier: MIT
#include "ui/ConversationPanel.h"

#include <QLabel>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextCursor>
#include <QVBoxLayout>

namespace kwb::ui {

ConversationPanel::ConversationPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  header_ = new QLabel(this);
  view_ = new QTextBrowser(this);
  view_->setOpenLinks(false);
  layout->addWidget(header_);
  layout->addWidget(view_, 1);
  clearConversation(tr("Select an iteration"));
}

void ConversationPanel::setConversation(const QString& provider, const QString& prompt, const QString& reply,
                                        const QString& feedback) {
  header_->setText(provider == QLatin1String("replay")
                       ? tr("<b>Replay</b> — recorded reply, no model was called")
                       : tr("Model: %1").arg(provider.toHtmlEscaped()));
  auto section = [](const QString& title, const QString& body) {
    if (body.isEmpty()) return QString();
    return QStringLiteral("<h3>%1</h3><pre style=\"white-space: pre-wrap\">%2</pre>")
        .arg(title, body.toHtmlEscaped());
  };
  view_->setHtml(section(tr("Prompt"), prompt) + section(tr("Reply"), reply) +
                 section(tr("Feedback for the next prompt"), feedback));
}

void ConversationPanel::clearConversation(const QString& why) {
  liveIteration_.reset();
  header_->setText(why);
  view_->clear();
}

void ConversationPanel::beginLiveReply(int iterationId, const QString& soFar) {
  liveIteration_ = iterationId;
  header_->setText(
      tr("<b>Iteration %1</b> — the agent is writing (your edit stays in the editor)").arg(iterationId));
  view_->setPlainText(soFar);
}

void ConversationPanel::appendLiveReply(const QString& delta) {
  if (!liveIteration_) return;
  QTextCursor c(view_->document());
  c.movePosition(QTextCursor::End);
  c.insertText(delta);
  view_->verticalScrollBar()->setValue(view_->verticalScrollBar()->maximum());
}

void ConversationPanel::endLiveReply() {
  if (!liveIteration_) return;
  header_->setText(tr("<b>Iteration %1</b> — reply complete (select the iteration for its transcript)")
                       .arg(*liveIteration_));
  liveIteration_.reset();
}

QString ConversationPanel::text() const {
  return view_->toPlainText();
}

}  // namespace kwb::ui
