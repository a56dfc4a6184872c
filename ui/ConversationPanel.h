// SPDX-License-Identifier: MIT
#pragma once
// What the agent was told and what it answered for one iteration, plus the feedback that went into the
// next prompt. Replayed replies are labelled as replays.

#include <QWidget>
#include <optional>

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
  // The agent's reply to `iterationId` as it streams (shown here while the editor holds the engineer's
  // edit), starting with `soFar`; endLiveReply() leaves it shown until another iteration is selected.
  void beginLiveReply(int iterationId, const QString& soFar);
  void appendLiveReply(const QString& delta);
  void endLiveReply();
  std::optional<int> liveReplyIteration() const { return liveIteration_; }
  QString text() const;

 private:
  QLabel* header_;
  QTextBrowser* view_;
  std::optional<int> liveIteration_;
};

}  // namespace kwb::ui
