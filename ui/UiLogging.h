// SPDX-License-Identifier: MIT
#pragma once
// Logging categories of the workbench GUI, so a user can turn on just what they need:
//   QT_LOGGING_RULES="kwb.ui.*=true" kernel-workbench
// kwb.ui.session: opening, saving and reopening sessions; kwb.ui.agent: the agent loop as the GUI sees
// it (state changes, failures); kwb.ui.settings: provider and default settings read or rejected.

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcUiSession)
Q_DECLARE_LOGGING_CATEGORY(lcUiAgent)
Q_DECLARE_LOGGING_CATEGORY(lcUiSettings)
