// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the host tiling helpers of the math library that operator projects include as
// "tiling/tiling_api.h" (SoftMaxTilingFunc, the temporary-size helpers, GetSortTmpSize) and the Matmul API's
// host tiling (matmul_tiling::MatmulApiTiling / MultiCoreMatmulTiling, kwb_sim/matmul_host_tiling.h).
#include "kwb_sim/math_layernorm_tiling.h"
#include "kwb_sim/math_rmsnorm_tiling.h"
#include "kwb_sim/math_softmax_tiling.h"
#include "kwb_sim/math_tmp_size.h"
#include "kwb_sim/matmul_host_tiling.h"
#include "kwb_sim/vec_sort_tiling.h"
