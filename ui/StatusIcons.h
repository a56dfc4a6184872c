// SPDX-License-Identifier: MIT
#pragma once
// The icons the item models show. Models live in kwb_ui_models, which links Qt Gui but not Widgets (so
// they can be tested and reused without a widget style): the widget layer fills this from its style
// (styleStatusIcons(), ui/StyleStatusIcons.h) and hands it to the models it creates.

#include <QIcon>

namespace kwb::ui {

struct StatusIcons {
  QIcon note;     // a note diagnostic
  QIcon warning;  // a warning diagnostic; an iteration that failed or was stopped
  QIcon error;    // an error diagnostic
  QIcon running;  // an iteration still in progress
  QIcon paused;   // an iteration held by the paused agent
  QIcon pass;     // an iteration that passed
  QIcon fail;     // an iteration that failed verification
};

}  // namespace kwb::ui
