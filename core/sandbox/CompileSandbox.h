// SPDX-License-Identifier: MIT
#pragma once
// Compiler runs on untrusted source (a candidate kernel, a task's reference) go through kwb::Sandbox
// like the programs they produce: g++ opens whatever a source names (`#include "/dev/zero"` grows
// until memory runs out, `#include "/root/secret"` quotes a host file into the diagnostics), so it
// sees only /usr, the folders bound read-only here, and one scratch folder it may write, under CPU,
// wall-clock, memory, file-size and output limits. See docs/sandbox.md ("Compiling").

#include <filesystem>
#include <string>
#include <vector>

#include "core/sandbox/Sandbox.h"

namespace kwb {

// The limits of a compiler run (numbers measured in docs/sandbox.md): 120 s wall and CPU, 2 GiB of
// address space per process, 512 MiB per written file, a 512 MiB private /tmp, 4 MiB of output per
// stream, 32 tasks, no network.
SandboxPolicy compilerSandboxPolicy();

// Runs `argv` under `base`'s limits with `scratch` as the only writable folder (and working
// directory) and every existing path of `readOnly` bound read-only at its own path, so diagnostics name
// the files where the caller knows them. Paths under /usr (always visible) and missing ones are not
// bound. The scratch folder (and everything in it) is handed to the sandbox user when kwb is root.
SandboxResult runSandboxedCompiler(const SandboxPolicy& base, const std::filesystem::path& scratch,
                                   const std::vector<std::filesystem::path>& readOnly,
                                   const std::vector<std::string>& argv);

// The sandbox's own findings about a compiler run (a limit hit, the sandbox not set up, isolation
// weaker than asked, the compiler killed by a signal), prefixed with `what`: reported before the
// compiler's own diagnostics. Empty for a compiler that simply reported errors.
std::vector<Diagnostic> compilerSandboxDiagnostics(const SandboxResult& r, const std::string& what);

}  // namespace kwb
