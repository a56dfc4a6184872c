// SPDX-License-Identifier: MIT
#include "ui/UiLogging.h"

// Off below warnings by default: the GUI reports to the user in its own panels, the log is for support.
Q_LOGGING_CATEGORY(lcUiSession, "kwb.ui.session", QtWarningMsg)
Q_LOGGING_CATEGORY(lcUiAgent, "kwb.ui.agent", QtWarningMsg)
Q_LOGGING_CATEGORY(lcUiSettings, "kwb.ui.settings", QtWarningMsg)
