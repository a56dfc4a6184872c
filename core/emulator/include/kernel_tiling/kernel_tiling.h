// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the header CANN generates for kernels that read their tiling
// (`kernel_tiling/kernel_tiling.h`). Vector samples include it next to kernel_operator.h for the tiling
// macros (GET_TILING_DATA and its forms, kwb_sim/op_tiling.h), which come with the kernel API
// (docs/emulator.md, "Launch forms"); cube samples for TCubeTiling (kwb_sim/matmul_tiling_data.h).
#include "kernel_operator.h"
#include "kwb_sim/matmul_tiling_data.h"
