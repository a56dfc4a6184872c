// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: host API of CANN's CPU debug mode (GmAlloc, GmFree, SetKernelMode, ICPU_RUN_KF).
#include "kernel_operator.h"
#include "kwb_sim/host.h"
#include "securec.h"
