// SPDX-License-Identifier: MIT
#include "core/sandbox/CompileSandbox.h"

#include <algorithm>

namespace kwb {

namespace fs = std::filesystem;

SandboxPolicy compilerSandboxPolicy() {
  SandboxPolicy p;
  // A candidate plus the emulator headers compiles in about 2 s here (PCH built once: 2.4 s); 120 s
  // leaves room for a loaded machine and heavier candidates, and still ends a compile-time loop.
  p.wallTimeout = std::chrono::seconds(120);
  p.cpuSeconds = 120;
  // Measured (prlimit --as): add_custom's compile+link needs 128 MiB of address space, the emulator
  // PCH 192 MiB; cc1plus' resident peak is about 100 MiB. 2 GiB is ten times that, for heavier
  // candidates, and stops `#include "/dev/zero"` (which grows until the limit) long before the host
  // suffers.
  p.addressSpaceBytes = 2ull << 30;
  // Objects and the linked program are a few MiB; 512 MiB per file stops a runaway output early.
  p.maxFileSizeBytes = 512ull << 20;
  // g++ keeps its assembler files and objects in /tmp (the private tmpfs) during a compile+link.
  p.tmpfsBytes = 512ull << 20;
  // Honest diagnostics are kilobytes; template explosions are cut here rather than filling memory.
  p.outputCap = 4u << 20;
  // driver + cc1plus + as + collect2 + ld, one at a time.
  p.maxProcesses = 32;
  p.allowNetwork = false;
  return p;
}

SandboxResult runSandboxedCompiler(const SandboxPolicy& base, const fs::path& scratch,
                                   const std::vector<fs::path>& readOnly,
                                   const std::vector<std::string>& argv) {
  SandboxPolicy policy = base;
  policy.scratchDir = scratch;
  auto within = [](const fs::path& p, const fs::path& dir) {
    const auto rel = p.lexically_normal().lexically_relative(dir);
    return !rel.empty() && *rel.begin() != "..";
  };
  for (const auto& p : readOnly) {
    std::error_code ec;
    if (p.empty() || !fs::exists(p, ec)) continue;
    const fs::path abs = fs::absolute(p, ec).lexically_normal();
    if (within(abs, "/usr") || within(abs, scratch)) continue;
    if (std::find(policy.readOnlyPaths.begin(), policy.readOnlyPaths.end(), abs) ==
        policy.readOnlyPaths.end())
      policy.readOnlyPaths.push_back(abs);
  }
  return Sandbox(policy).run(argv);
}

std::vector<Diagnostic> compilerSandboxDiagnostics(const SandboxResult& r, const std::string& what) {
  std::vector<Diagnostic> out;
  for (Diagnostic d : r.diagnostics) {
    d.message = what + ": " + d.message;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace kwb
