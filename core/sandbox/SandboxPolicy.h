#pragma once
// What a sandboxed run of untrusted code (a candidate's binary, a generated host harness) may do.
// See docs/sandbox.md for how each limit is enforced.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace kwb {

enum class SandboxIsolation {
  Auto,         // bubblewrap when it works here, else rlimits only (with a warning diagnostic)
  Bubblewrap,   // bubblewrap or nothing: the run fails with a sandbox-setup error when unavailable
  RlimitsOnly,  // never bubblewrap (tests of the fallback; hosts where namespaces are forbidden)
};

struct SandboxPolicy {
  // The only writable place, and the working directory. Created when missing. When the workbench runs
  // as root the program runs as `sandboxUid`, and the scratch folder (with what is in it) is handed
  // to that user.
  std::filesystem::path scratchDir;
  // Bound read-only at the same path inside the sandbox (e.g. the folder holding the program).
  std::vector<std::filesystem::path> readOnlyPaths;

  std::chrono::milliseconds wallTimeout{30000};     // whole run, then the process tree is killed
  int cpuSeconds = 30;                              // RLIMIT_CPU per process (SIGXCPU)
  std::uint64_t addressSpaceBytes = 8ull << 30;     // RLIMIT_AS per process
  int maxProcesses = 64;                            // tasks (processes + threads) of the sandbox
  std::uint64_t maxFileSizeBytes = 1ull << 30;      // RLIMIT_FSIZE (SIGXFSZ)
  int maxOpenFiles = 1024;                          // RLIMIT_NOFILE
  std::uint64_t tmpfsBytes = 256ull << 20;          // size of the private /tmp and /dev/shm
  std::size_t outputCap = 8u << 20;                 // per stream; past it the program is killed
  bool allowNetwork = false;

  // Added to the minimal environment (PATH, HOME=scratch, TMPDIR, LANG). Nothing else is inherited.
  std::map<std::string, std::string> environment;

  SandboxIsolation isolation = SandboxIsolation::Auto;
  // The unprivileged identity used when the workbench itself runs as root (root ignores the process
  // limit and may write anywhere outside the mount namespace). Default: nobody/nogroup.
  unsigned sandboxUid = 65534;
  unsigned sandboxGid = 65534;
};

}  // namespace kwb
