// SPDX-License-Identifier: MIT
#pragma once
// The remote side of a sandboxed run (docs/suites.md, "SSH"): a POSIX sh script the workbench writes
// into each remote workspace (kwb-remote/run.sh) and the command line that calls it. On the remote host
// the candidate's program runs under bubblewrap when it works there (no network, the system read-only,
// only the named folders writable, a private /tmp, /dev for the NPU) and `timeout`; where bubblewrap
// cannot run it gets rlimits and `timeout` only and says so on stderr ("kwb-remote: isolation ...").

#include <string>
#include <vector>

namespace kwb::remote {

std::string remoteRunScript();

struct RemoteRunRequest {
  std::string script;                 // the remote path of run.sh
  int seconds = 60;                   // wall limit (timeout; exit 124 when hit)
  std::string workDir;                // the run's working folder and HOME (writable)
  std::vector<std::string> readOnly;  // bound read-only (the program, its inputs, the toolkit)
  std::vector<std::string> writable;  // bound writable (results, profiles)
  std::vector<std::pair<std::string, std::string>> environment;
  std::vector<std::string> argv;
};

// `sh SCRIPT SECONDS WORK ro=P... rw=P... env=N=V... -- ARGV...`, quoted for the remote shell.
std::string remoteRunCommand(const RemoteRunRequest& request);

// The marker line run.sh prints on stderr naming the isolation ("bubblewrap" or "rlimits-only"), or "".
std::string remoteIsolation(const std::string& stderrText);

}  // namespace kwb::remote
