// SPDX-License-Identifier: MIT
#pragma once
// `kwb task import DIR` on a kernel-launch sample folder (docs/task-format.md, "Importing a
// kernel-launch sample"): a kernel source with one `extern "C" __global__ __aicore__ void <op>(GM_ADDR
// ...)` entry, a host program main.cpp launching it with ICPU_RUN_KF (CPU debug) or ACL, and the
// sample's scripts. The task's signature comes from the entry (each tensor's dtype from the kernel's
// `(__gm__ T*)param` cast, outputs are the tensors the kernel copies into), the block count from
// main.cpp's ICPU_RUN_KF; the cases and the reference are the user's. The kernel becomes the
// candidate in the kwb_tiling form (docs/candidate-contract.md, "Kernel-launch samples"). Nothing in
// the folder is compiled or run here, and every problem names the file and line.

#include <filesystem>

#include "core/agent/OpProjectImport.h"

namespace kwb {

// The folder has no op_host/ or op_kernel/ but a top-level *.cpp besides main.cpp.
bool looksLikeKernelLaunchSample(const std::filesystem::path& dir);

OperatorProjectImport importKernelLaunchSample(const std::filesystem::path& dir,
                                               const OperatorProjectImportOptions& options);

}  // namespace kwb
