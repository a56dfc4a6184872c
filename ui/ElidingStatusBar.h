// SPDX-License-Identifier: MIT
#pragma once
// A status bar whose temporary message never runs into the permanent labels on its right (the agent
// state, iteration, tokens, elapsed time, backend): a message too long for the room left is elided
// with "…", a gap separates it from the first label, and hovering it shows the whole text.

#include <QStatusBar>

namespace kwb::ui {

class ElidingStatusBar : public QStatusBar {
  Q_OBJECT
 public:
  explicit ElidingStatusBar(QWidget* parent = nullptr);

  // The message as drawn (elided when it does not fit), and the rectangle it is drawn in.
  QString shownMessage() const;
  QRect messageArea() const;
  // Pixels kept free between the message and the first permanent label.
  static constexpr int kGap = 16;

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
};

}  // namespace kwb::ui
