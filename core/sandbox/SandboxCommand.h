// SPDX-License-Identifier: MIT
#pragma once
// Turns a policy and a program's argv into the command that runs it sandboxed:
//
//   bubblewrap:   [setpriv (root only)] bwrap <namespaces, mounts, env> -- prlimit <limits> -- PROGRAM...
//   rlimits-only: [setpriv (root only)] prlimit <limits> -- PROGRAM...
//
// Why prlimit rather than a helper binary of our own: posix_spawn cannot set the child's rlimits, so
// something has to run between bwrap and the program. util-linux prlimit (and setpriv) are on every
// Debian system (util-linux is Essential), need nothing installed next to kwb, and keep the printed
// command line fully re-runnable. Inside bwrap, prlimit runs *after* the user namespace exists, which
// is what makes RLIMIT_NPROC count only the sandbox's own tasks (it is counted per user namespace), not
// every process the user has.

#include <map>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"
#include "core/process/ProcessRunner.h"
#include "core/sandbox/SandboxHost.h"
#include "core/sandbox/SandboxPolicy.h"

namespace kwb {

struct SandboxLaunch {
  ProcessSpec spec;                      // ready for ProcessRunner (timeout, caps, env, cwd set)
  std::string isolation;                 // "bubblewrap" or "rlimits-only"
  bool spawnedProcessIsProgram = false;  // rlimits-only: the spawned pid becomes the program
  int processLimit = 0;                  // the RLIMIT_NPROC value handed to prlimit
  std::vector<Diagnostic> warnings;      // isolation weaker than asked for
  std::string error;                     // non-empty: nothing can be run (see message)
};

// A `sandbox-setup` warning: the run goes ahead, weaker than asked for (the message says how).
Diagnostic sandboxSetupWarning(std::string message);

// The minimal environment of a sandboxed program: PATH, HOME (the scratch folder), TMPDIR, LANG, then
// the policy's additions.
std::map<std::string, std::string> sandboxEnvironment(const SandboxPolicy& policy, const std::string& tmpDir);

// The prlimit invocation (up to and including "--") for a policy; `nproc` is RLIMIT_NPROC.
std::vector<std::string> prlimitArguments(const SandboxPolicy& policy, const SandboxHost& host, int nproc);

// `scratch`, `readOnly` and `writable` must be canonical, existing paths.
SandboxLaunch buildBubblewrapLaunch(const SandboxPolicy& policy, const SandboxHost& host,
                                    const std::string& scratch, const std::vector<std::string>& readOnly,
                                    const std::vector<std::string>& argv,
                                    const std::vector<std::string>& writable = {});
SandboxLaunch buildRlimitsOnlyLaunch(const SandboxPolicy& policy, const SandboxHost& host,
                                     const std::string& scratch, const std::vector<std::string>& argv);

}  // namespace kwb
