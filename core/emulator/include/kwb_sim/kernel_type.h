// SPDX-License-Identifier: MIT
#pragma once
// The core type a kernel declares: KERNEL_TASK_TYPE_DEFAULT(type) in its body (docs/emulator.md,
// "Mixed AIC/AIV kernels"). The launch must know it before any block runs (a mix kernel's block is
// 1 AIC + 1 or 2 AIV processes), so a kernel that can declare a cube or mix type is first run as a
// probe: the probe process stops at the declaration and tells the launch the type (runtime/KernelType.cpp).

#include <cstdint>

#include "kwb_sim/base.h"

enum KernelMetaType {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE
};

namespace kwb_sim {

// Program start: a kernel of this program can declare `type` (only the types that change how blocks
// run are noted: AIC-only and the mix types). Without any, launches need no probe.
bool noteKernelTypeInProgram(int type) noexcept;
// The declaration running in a block: in the probe it reports the type and ends the probe; in a block
// it checks that the type is the one the launch ran the kernel as.
void declareKernelType(int type, SrcLoc loc);

template <KernelMetaType T>
struct KernelTypeInProgram {
  static inline const bool noted = noteKernelTypeInProgram(static_cast<int>(T));
};

}  // namespace kwb_sim

namespace AscendC {
// What KERNEL_TASK_TYPE_DEFAULT expands to (an AscendC name, so that the expansion passes the candidate
// policy): notes the type for the program and declares it where the kernel runs.
template <KernelMetaType T>
void KwbDeclareKernelType(::kwb_sim::SrcLoc loc = ::kwb_sim::SrcLoc::current()) {
  static_cast<void>(::kwb_sim::KernelTypeInProgram<T>::noted);
  ::kwb_sim::declareKernelType(static_cast<int>(T), loc);
}
}  // namespace AscendC

#define KERNEL_TASK_TYPE_DEFAULT(type) ::AscendC::KwbDeclareKernelType<static_cast<KernelMetaType>(type)>()
