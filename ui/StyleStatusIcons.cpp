// SPDX-License-Identifier: MIT
#include "ui/StyleStatusIcons.h"

#include <QApplication>
#include <QStyle>

namespace kwb::ui {

StatusIcons styleStatusIcons() {
  StatusIcons icons;
  QStyle* s = QApplication::style();
  if (!s) return icons;
  icons.note = s->standardIcon(QStyle::SP_MessageBoxInformation);
  icons.warning = s->standardIcon(QStyle::SP_MessageBoxWarning);
  icons.error = s->standardIcon(QStyle::SP_MessageBoxCritical);
  icons.running = s->standardIcon(QStyle::SP_BrowserReload);
  icons.paused = s->standardIcon(QStyle::SP_MediaPause);
  icons.pass = s->standardIcon(QStyle::SP_DialogApplyButton);
  icons.fail = s->standardIcon(QStyle::SP_DialogCancelButton);
  return icons;
}

}  // namespace kwb::ui
