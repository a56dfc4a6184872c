// SPDX-License-Identifier: MIT
#include "ui/ConversationPanel.h"

#include <QLabel>
#include <QTextBrowser>
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
  header_->setText(why);
  view_->clear();
}

QString ConversationPanel::text() const {
  return view_->toPlainText();
}

}  // namespace kwb::ui
