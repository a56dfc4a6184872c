// SPDX-License-Identifier: MIT
#pragma once
// What the agent was told and what it answered for one iteration, plus the feedback that went into the
// next prompt. Replayed replies are labelled as replays.

#include <QWidget>

class QTextBrowser;
class QLabel;

namespace kwb::ui {

class ConversationPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ConversationPanel(QWidget* parent = nullptr);
  void setConversation(const QString& provider, const QString& prompt, const QString& reply,
                       const QString& feedback);
  void clearConversation(const QString& why);
  QString text() const;

 private:
  QLabel* header_;
  QTextBrowser* view_;
};

}  // namespace kwb::ui
