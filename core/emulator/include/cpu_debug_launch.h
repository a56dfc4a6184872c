// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: what the `.asc` samples include for CPU debug mode (before or after kernel_operator.h):
// the kernel API and the launch forms, including `kernel<<<blockDim, l2ctrl, stream>>>(args)`, which
// kwb rewrites into a call of the emulator's launcher (docs/emulator.md, "Launch forms").
#include "acl/acl.h"
#include "kernel_operator.h"
#include "kwb_sim/host.h"
