// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the header operator projects include for tiling template programming
// (docs/emulator.md, "Template tiling keys"); the declarations are in kwb_op/template_args.h.
#include "kwb_op/template_args.h"
