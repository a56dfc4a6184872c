// SPDX-License-Identifier: MIT
// The first-run tour's place in the window: Help ▸ Tour of the workbench, and the offer on a new user's
// first launch (docs/workbench.md, "First-run tour").
#include "ui/FirstRunTour.h"
#include "ui/MainWindow.h"

namespace kwb::ui {

FirstRunTour* MainWindow::showTour() {
  // Not modal: the panels it describes stay visible and usable beside it.
  auto* tour = new FirstRunTour(this);
  tour->setAttribute(Qt::WA_DeleteOnClose);
  tour->setObjectName(QStringLiteral("firstRunTour"));
  tour->show();
  tour->raise();
  return tour;
}

FirstRunTour* MainWindow::maybeShowFirstRunTour() {
  return FirstRunTour::done() ? nullptr : showTour();
}

}  // namespace kwb::ui
