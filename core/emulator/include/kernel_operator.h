// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the Ascend C kernel API for CPU builds (`kwb sim build`). Same source as on the NPU.
// The standard headers CANN's kernel_operator.h brings in for CPU builds, which samples rely on without
// including them (std::runtime_error, std::vector, std::string, std::min, std::sqrt, std::cout).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "kwb_sim/base.h"
#include "kwb_sim/block_sync.h"
#include "kwb_sim/buf_pool.h"
#include "kwb_sim/cross_core.h"
#include "kwb_sim/cube.h"
#include "kwb_sim/data_copy.h"
#include "kwb_sim/data_copy_slice.h"
#include "kwb_sim/kernel_misc.h"
#include "kwb_sim/math_activation.h"
#include "kwb_sim/math_layernorm.h"
#include "kwb_sim/math_layernorm_tiling.h"
#include "kwb_sim/math_rmsnorm.h"
#include "kwb_sim/math_rmsnorm_tiling.h"
#include "kwb_sim/math_softmax.h"
#include "kwb_sim/math_softmax_tiling.h"
#include "kwb_sim/math_tmp_size.h"
#include "kwb_sim/op_tiling.h"
#include "kwb_sim/pipe.h"
#include "kwb_sim/runtime.h"
#include "kwb_sim/sync.h"
#include "kwb_sim/tensor.h"
#include "kwb_sim/tensor_ops.h"
#include "kwb_sim/type_utils.h"
#include "kwb_sim/types.h"
#include "kwb_sim/unsupported.h"
#include "kwb_sim/vec_cmp_mask.h"
#include "kwb_sim/vec_compares.h"
#include "kwb_sim/vec_copy.h"
#include "kwb_sim/vec_fused.h"
#include "kwb_sim/vec_gather.h"
#include "kwb_sim/vec_gather_mask.h"
#include "kwb_sim/vec_misc.h"
#include "kwb_sim/vec_ops.h"
#include "kwb_sim/vec_reduce_block.h"
#include "kwb_sim/vec_reduce_repeat.h"
#include "kwb_sim/vec_scatter.h"
#include "kwb_sim/vec_sort.h"
#include "kwb_sim/vec_transpose.h"
