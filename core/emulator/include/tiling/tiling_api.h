// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the host tiling helpers of the math library that operator projects include as
// "tiling/tiling_api.h" (SoftMaxTilingFunc and the temporary-size helpers).
#include "kwb_sim/math_rmsnorm_tiling.h"
#include "kwb_sim/math_softmax_tiling.h"
#include "kwb_sim/math_tmp_size.h"
