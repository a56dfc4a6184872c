// SPDX-License-Identifier: MIT
#pragma once
// What a remote NPU host offers (docs/suites.md, "SSH"): one POSIX sh script run over ssh prints the
// CANN toolkit it finds (the same places detectCann looks: ASCEND_TOOLKIT_HOME, ASCEND_HOME_PATH, the
// default install roots), its tools, the simulator SoCs, /dev/davinci* devices, npu-smi, and whether
// bubblewrap works there; parseRemoteProbe reads that answer as hostile input.

#include <optional>
#include <string>
#include <vector>

#include "core/remote/SshSession.h"
#include "core/toolchain/CannCommands.h"

namespace kwb::remote {

struct RemoteHostFacts {
  std::string home;                   // the remote login's $HOME (absolute)
  std::optional<CannToolPaths> cann;  // nullopt: no toolkit found
  std::string cannFoundVia;  // "ASCEND_TOOLKIT_HOME", "ASCEND_HOME_PATH", "default location", "--remote-cann"
  std::optional<std::string> cannVersion;
  std::vector<std::string> simulatorSocs;
  std::vector<std::string> devices;   // /dev/davinciN
  std::optional<std::string> npuSmi;  // path of npu-smi
  bool bubblewrap = false;            // a trial bwrap sandbox worked
  bool haveTar = false, haveTimeout = false;
  std::vector<std::string> warnings;  // lines of the answer that were ignored, and why
};

// The probe script. `cannRoot` non-empty: look only there (the --remote-cann option).
std::string remoteProbeScript(const std::string& cannRoot = {});

// Reads the probe's answer: lines `key=value` between `kwb-probe 1` and `kwb-probe end` (what a login
// shell prints before them is ignored). Paths must be absolute, without whitespace, quotes or shell
// metacharacters; SoC names letters, digits and `_`. nullopt with `error` when the answer is not the
// probe's (no markers) or $HOME is unusable; other bad lines are dropped into warnings.
std::optional<RemoteHostFacts> parseRemoteProbe(const std::string& answer, std::string& error);

// Probes over `session`. nullopt with `error` (the connection failure's message, or the parse error).
std::optional<RemoteHostFacts> probeRemoteHost(const SshSession& session, const std::string& cannRoot,
                                               std::string& error, SshFailureKind* failure = nullptr);

// The run mode the remote host gets: npu with a device, sim when `soc` has a simulator, else cpu.
std::string remoteRunMode(const RemoteHostFacts& facts, const std::string& soc);

// A remote path is safe to put into the workbench's remote shell commands unquoted.
bool isSafeRemotePath(const std::string& path);

}  // namespace kwb::remote
