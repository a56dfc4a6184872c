// SPDX-License-Identifier: MIT
#pragma once
// How a launch runs its kernel's blocks (docs/emulator.md, "Mixed AIC/AIV kernels"): one process per
// block for vector and cube kernels; 1 AIC + 1 or 2 AIV processes per block for the mix types
// KERNEL_TYPE_MIX_AIC_1_1 / _1_2 and __mix__(1, 1) / (1, 2). The type comes from the kernel's __mix__
// section or, when the program can declare a cube or mix type with KERNEL_TASK_TYPE_DEFAULT, from a
// probe run of block 0 that stops at the declaration.

#include <cstdint>
#include <string>

#include "kwb_sim/runtime.h"

namespace kwb_sim::rt {

struct KernelLayout {
  int type = 0;                   // a KernelMetaType value (KERNEL_TYPE_AIV_ONLY when nothing is declared)
  std::uint32_t aivPerBlock = 1;  // 0 for a cube-only kernel
  bool aicPerBlock = false;       // a cube core runs (cube-only or mix)
  std::string origin;             // where the type came from, for messages ("" when not declared)
  bool mix() const { return aicPerBlock && aivPerBlock > 0; }
  std::uint32_t coresPerBlock() const { return mix() ? 1 + aivPerBlock : 1; }
  // The core of process slot `slot` of a block (slot 0 is the AIC of a mix block).
  CoreKind coreOfSlot(std::uint32_t slot) const {
    if (mix()) return slot == 0 ? CoreKind::Aic : CoreKind::Aiv;
    return aicPerBlock ? CoreKind::Aic : CoreKind::Plain;
  }
};

// Parent, before the blocks are forked. `workDir` is the launch's directory (the probe leaves nothing
// there); a probe that does not reach a declaration within `timeoutMs` counts as "not declared".
// A `__mix__(cube, vector)` ratio read from the source by the launch rewrite; {-1, -1} when none.
struct MixRatio {
  int cube = -1;
  int vector = -1;
};
// `declared` counts when `entry` lies in no __mix__ section: a template kernel's instances do not (the
// compiler ignores the section attribute on them), so the launch rewrite passes the source's ratio.
KernelLayout resolveKernelLayout(const void* entry, MixRatio declared, KernelThunk thunk, void* ctx,
                                 const std::string& workDir, std::int64_t blockDim, long timeoutMs);
// Child: the layout the launch chose (declareKernelType compares the kernel's declaration with it).
void setBlockLayout(const KernelLayout& layout);
// The layout's name for messages: "KERNEL_TYPE_MIX_AIC_1_2" etc.
const char* kernelTypeName(int type);

}  // namespace kwb_sim::rt
