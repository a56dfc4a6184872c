// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the kernel-side printf header of the devkit's samples (`utils/debug/asc_printf.h`).
// Kernel printf / PRINTF write to the block process's stdout (kwb_sim/kernel_misc.h), which the
// block flushes when it ends (docs/emulator.md, "Launch forms").
#include "kernel_operator.h"
