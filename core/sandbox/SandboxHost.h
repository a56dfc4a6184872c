// SPDX-License-Identifier: MIT
#pragma once
// What this machine offers for sandboxing, probed once per process: bubblewrap (and whether it can
// actually create a sandbox here: user namespaces may be disabled), util-linux prlimit and setpriv,
// the seccomp filter file, and whether we run as root.

#include <optional>
#include <string>

namespace kwb {

struct SandboxHost {
  bool runningAsRoot = false;
  std::string bwrapPath;               // empty: not found in PATH
  std::string bwrapVersion;            // first line of `bwrap --version`
  bool bwrapHasDisableUserns = false;  // bwrap >= 0.8
  bool bwrapHasTmpfsSize = false;      // --size / --perms for tmpfs (bwrap >= 0.5)
  bool bwrapUsable = false;            // a trial sandbox with the real options ran and exited 0
  std::string bwrapProblem;            // why bubblewrap cannot be used, when it cannot
  std::string prlimitPath;             // util-linux prlimit: sets the rlimits of the program it runs
  std::string setprivPath;             // util-linux setpriv: drops root to the sandbox user
  std::optional<std::string> seccompFilterPath;
  std::string seccompProblem;

  // One paragraph for `kwb doctor` and logs: which isolation runs use and what it covers.
  std::string describe() const;
};

// Probed on first use (a trial bwrap run of a few milliseconds), then cached.
const SandboxHost& sandboxHost();

}  // namespace kwb
