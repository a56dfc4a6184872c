// SPDX-License-Identifier: MIT
#pragma once
// The fast path of raw accesses (RawAccess.cpp): performs one decoded memory instruction of kernel code
// on the runtime alias of the faulting address, with the registers and flags in the signal's ucontext,
// and advances nothing else (the caller moves RIP). Async-signal-safe: no allocation, no locks. x86-64.

#include <ucontext.h>

#include <cstdint>

#include "core/emulator/analysis/X86Decode.h"

namespace kwb_sim {

// False: not performed (nothing changed); single-step the instruction instead.
bool emulateMemInstr(const x86::MemInstr& m, ucontext_t* uc, std::uint8_t* mem);

}  // namespace kwb_sim
