// SPDX-License-Identifier: MIT
#pragma once
// Maps how a sandboxed run ended to shared Diagnostics (source "sandbox"):
//
//   sandbox-violation  a limit or a wall of the sandbox was hit: address space (allocation failed),
//                      process limit (fork bomb), file size (SIGXFSZ), output cap, network socket
//                      (seccomp SIGSYS), a write refused by the read-only file system
//   timeout            wall-clock limit, or CPU-time limit (SIGXCPU)
//   runtime-crash      any other death by signal
//
// Every message ends with the re-runnable command line. A plain non-zero exit is the program's own
// verdict and yields no diagnostic here: the caller (a backend, the verifier) knows what it means.

#include <vector>

#include "core/model/Diagnostic.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/SandboxPolicy.h"

namespace kwb {

std::vector<Diagnostic> diagnoseSandboxOutcome(const SandboxPolicy& policy, const SandboxResult& result,
                                               bool seccompActive);

// "42 MiB", "1 GiB", "512 bytes".
std::string formatBytes(std::uint64_t bytes);

}  // namespace kwb
