// SPDX-License-Identifier: MIT
#include "ui/ElidingStatusBar.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStyleOption>
#include <QToolTip>
#include <algorithm>

namespace kwb::ui {

ElidingStatusBar::ElidingStatusBar(QWidget* parent) : QStatusBar(parent) {}

QRect ElidingStatusBar::messageArea() const {
  // While a message shows, QStatusBar hides the normal widgets, so the visible children are the
  // permanent ones (and the size grip, which sits at the far right anyway).
  int right = width() - 12;
  for (const QObject* child : children())
    if (const auto* w = qobject_cast<const QWidget*>(child); w && w->isVisible() && !w->isWindow())
      right = std::min(right, w->x() - kGap);
  const int left = 6;
  return QRect(left, 0, std::max(0, right - left), height());
}

QString ElidingStatusBar::shownMessage() const {
  return fontMetrics().elidedText(currentMessage(), Qt::ElideRight, messageArea().width());
}

void ElidingStatusBar::paintEvent(QPaintEvent* event) {
  if (currentMessage().isEmpty()) {
    QStatusBar::paintEvent(event);
    return;
  }
  // What QStatusBar draws (the panel and the frames of the permanent items), with the message elided
  // to its own area instead of cut where the first label starts.
  QPainter p(this);
  QStyleOption panel;
  panel.initFrom(this);
  style()->drawPrimitive(QStyle::PE_PanelStatusBar, &panel, &p, this);
  for (QObject* child : children()) {
    auto* w = qobject_cast<QWidget*>(child);
    if (!w || !w->isVisible() || w->isWindow()) continue;
    QStyleOption frame;
    frame.rect = w->geometry().adjusted(-2, -1, 2, 1);
    frame.palette = palette();
    frame.state = QStyle::State_None;
    style()->drawPrimitive(QStyle::PE_FrameStatusBarItem, &frame, &p, w);
  }
  p.setPen(palette().windowText().color());
  p.drawText(messageArea(), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine, shownMessage());
}

bool ElidingStatusBar::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    if (!currentMessage().isEmpty() && messageArea().contains(help->pos()) &&
        shownMessage() != currentMessage()) {
      QToolTip::showText(help->globalPos(), currentMessage(), this);
      return true;
    }
  }
  return QStatusBar::event(event);
}

}  // namespace kwb::ui
