// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the older path of the Matmul API header (same as lib/matmul_intf.h).
#include "lib/matmul_intf.h"
