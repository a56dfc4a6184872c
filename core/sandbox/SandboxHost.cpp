// SPDX-License-Identifier: MIT
#include "core/sandbox/SandboxHost.h"
#include "core/base/Environment.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "core/process/ProcessRunner.h"
#include "core/sandbox/SandboxCommand.h"
#include "core/sandbox/SeccompFilter.h"

namespace kwb {

namespace {

namespace fs = std::filesystem;

// PATH first, then the usual system folders (a GUI may be started with a thin PATH).
std::string findTool(const std::string& name) {
  std::string dirs;
  if (auto path = environmentValue("PATH")) dirs = *path;
  dirs += ":/usr/bin:/bin:/usr/sbin:/sbin";
  std::stringstream in(dirs);
  for (std::string dir; std::getline(in, dir, ':');) {
    if (dir.empty() || dir[0] != '/') continue;  // relative PATH entries are not trusted here
    std::string candidate = dir + "/" + name;
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return {};
}

std::string firstLine(const std::string& text) {
  auto nl = text.find('\n');
  return nl == std::string::npos ? text : text.substr(0, nl);
}

ProcessResult runQuick(std::vector<std::string> argv) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.timeout = std::chrono::seconds(10);
  spec.outputCap = 256 * 1024;
  return ProcessRunner().run(spec);
}

// Runs `true` through exactly the command real runs use. Installed is not enough: user namespaces may
// be disabled (sysctl, AppArmor), or the kernel may refuse a mount.
void tryBubblewrap(SandboxHost& host) {
  std::error_code ec;
  std::string scratch = (fs::temp_directory_path(ec) / "kwb-sandbox-probe-XXXXXX").string();
  if (ec || !mkdtemp(scratch.data())) {
    host.bwrapProblem = "cannot create a probe folder in the temp directory";
    return;
  }
  SandboxPolicy policy;
  policy.scratchDir = scratch;
  policy.wallTimeout = std::chrono::seconds(10);
  if (host.runningAsRoot && chown(scratch.c_str(), policy.sandboxUid, policy.sandboxGid) != 0) {
    host.bwrapProblem =
        "cannot hand the probe folder " + scratch + " to uid " + std::to_string(policy.sandboxUid);
    fs::remove_all(scratch, ec);
    return;
  }
  SandboxLaunch launch = buildBubblewrapLaunch(policy, host, scratch, {}, {"true"});
  if (!launch.error.empty()) {
    host.bwrapProblem = launch.error;
  } else {
    ProcessResult r = ProcessRunner().run(launch.spec);
    if (r.ok()) {
      host.bwrapUsable = true;
    } else {
      host.bwrapProblem = "a trial sandbox failed (" + r.describeOutcome() + ")";
      if (!r.stderrText.empty()) host.bwrapProblem += ": " + firstLine(r.stderrText);
      host.bwrapProblem += "; command: " + r.commandLine;
    }
  }
  fs::remove_all(scratch, ec);
}

SandboxHost probe() {
  SandboxHost host;
  host.runningAsRoot = geteuid() == 0;
  host.prlimitPath = findTool("prlimit");
  host.setprivPath = findTool("setpriv");
  std::string error;
  host.seccompFilterPath = networkSeccompFilterFile(error);
  host.seccompProblem = error;
  host.bwrapPath = findTool("bwrap");
  if (host.bwrapPath.empty()) {
    host.bwrapProblem = "bwrap was not found in PATH or /usr/bin (install the bubblewrap package)";
    return host;
  }
  ProcessResult version = runQuick({host.bwrapPath, "--version"});
  host.bwrapVersion = firstLine(version.stdoutText);
  ProcessResult help = runQuick({host.bwrapPath, "--help"});
  const std::string& usage = help.stdoutText.empty() ? help.stderrText : help.stdoutText;
  host.bwrapHasDisableUserns = usage.find("--disable-userns") != std::string::npos;
  host.bwrapHasTmpfsSize =
      usage.find("--size") != std::string::npos && usage.find("--perms") != std::string::npos;
  for (const char* needed :
       {"--die-with-parent", "--clearenv", "--remount-ro", "--seccomp", "--new-session"}) {
    if (usage.find(needed) == std::string::npos) {
      host.bwrapProblem = host.bwrapPath + " (" + host.bwrapVersion + ") lacks " + needed +
                          "; bubblewrap 0.5 or newer is needed";
      return host;
    }
  }
  tryBubblewrap(host);
  return host;
}

}  // namespace

const SandboxHost& sandboxHost() {
  static const SandboxHost host = probe();
  return host;
}

std::string SandboxHost::describe() const {
  std::string out;
  if (bwrapUsable) {
    out = "bubblewrap (" + bwrapVersion + ", " + bwrapPath +
          "): new user, pid, network, ipc, uts and cgroup namespaces; read-only /usr and a minimal /etc; "
          "private size-limited /tmp and /dev/shm; only the scratch folder is writable";
    out += seccompFilterPath ? "; seccomp reports network socket attempts"
                             : "; no seccomp filter (" + seccompProblem + ")";
  } else {
    out = "rlimits only (" + bwrapProblem + "): NO file-system or network isolation";
  }
  out += "; rlimits (CPU, address space, processes, file size, open files) via " +
         (prlimitPath.empty() ? std::string("prlimit, which is MISSING") : prlimitPath);
  if (runningAsRoot)
    out += setprivPath.empty()
               ? "; running as root and setpriv is MISSING: programs would run as root"
               : "; kwb runs as root, so programs run as an unprivileged user via " + setprivPath;
  return out;
}

}  // namespace kwb
