// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: what an operator project's op_host/<op>.cpp includes for its OpDef and TilingFunc
// (docs/emulator.md, "Operator projects").
// CANN's register headers bring in <iostream>; public TilingFuncs print with std::cout relying on it.
#include <iostream>

#include "kwb_op/ge_types.h"
#include "kwb_op/op_def.h"
#include "kwb_op/tiling_context.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"
