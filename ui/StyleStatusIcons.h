// SPDX-License-Identifier: MIT
#pragma once
// The model icons from the application's widget style.

#include "ui/StatusIcons.h"

namespace kwb::ui {

StatusIcons styleStatusIcons();

}  // namespace kwb::ui
