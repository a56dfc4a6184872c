// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the Matmul high-level API header kernels include (kwb_sim/matmul_api.h;
// docs/emulator.md, "Matmul API").
#include "kernel_operator.h"
#include "kwb_sim/matmul_api.h"
