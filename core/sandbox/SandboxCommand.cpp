// SPDX-License-Identifier: MIT
#include "core/sandbox/SandboxCommand.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "core/sandbox/ProcessCensus.h"

namespace kwb {

namespace {

// Never ask for more than the current hard limit: prlimit would fail, as would any unprivileged
// process raising its own limits.
std::uint64_t clampToHard(int resource, std::uint64_t wanted) {
  struct rlimit lim {};
  if (getrlimit(resource, &lim) != 0 || lim.rlim_max == RLIM_INFINITY) return wanted;
  return std::min<std::uint64_t>(wanted, lim.rlim_max);
}

std::string limitArg(const char* name, std::uint64_t soft, std::uint64_t hard) {
  return std::string("--") + name + "=" + std::to_string(soft) + ":" + std::to_string(hard);
}

// As root the program runs as the policy's unprivileged user: root ignores RLIMIT_NPROC and could write
// anything the mounts leave writable. setpriv also empties every capability set and sets no_new_privs.
std::vector<std::string> dropRootPrefix(const SandboxPolicy& policy, const SandboxHost& host) {
  if (!host.runningAsRoot || host.setprivPath.empty()) return {};
  return {host.setprivPath,
          "--reuid=" + std::to_string(policy.sandboxUid),
          "--regid=" + std::to_string(policy.sandboxGid),
          "--clear-groups",
          "--inh-caps=-all",
          "--bounding-set=-all",
          "--no-new-privs",
          "--"};
}

ProcessSpec baseSpec(const SandboxPolicy& policy, const std::string& scratch) {
  ProcessSpec spec;
  spec.workingDirectory = scratch;
  spec.inheritEnvironment = false;
  spec.timeout = policy.wallTimeout;
  spec.outputCap = policy.outputCap;
  spec.killOnOutputCap = true;  // an endless flood is killed, not drained until the wall timeout
  spec.killGrace = std::chrono::milliseconds(100);  // untrusted code gets no long goodbye
  return spec;
}

void append(std::vector<std::string>& to, std::initializer_list<std::string> items) {
  to.insert(to.end(), items.begin(), items.end());
}

}  // namespace

Diagnostic sandboxSetupWarning(std::string message) {
  Diagnostic d;
  d.source = "sandbox";
  d.severity = Severity::Warning;
  d.category = std::string(category::SandboxSetup);
  d.message = std::move(message);
  return d;
}

std::map<std::string, std::string> sandboxEnvironment(const SandboxPolicy& policy,
                                                      const std::string& tmpDir) {
  std::map<std::string, std::string> env{{"PATH", "/usr/local/bin:/usr/bin:/bin"},
                                         {"HOME", policy.scratchDir.string()},
                                         {"TMPDIR", tmpDir},
                                         {"LANG", "C.UTF-8"}};
  for (const auto& [k, v] : policy.environment) env[k] = v;
  return env;
}

std::vector<std::string> prlimitArguments(const SandboxPolicy& policy, const SandboxHost& host, int nproc) {
  const std::uint64_t cpu =
      clampToHard(RLIMIT_CPU, static_cast<std::uint64_t>(std::max(1, policy.cpuSeconds)));
  // One second between the soft limit (SIGXCPU, reported as a CPU timeout) and the hard one (SIGKILL).
  const std::uint64_t cpuHard = clampToHard(RLIMIT_CPU, cpu + 1);
  const std::uint64_t as = clampToHard(RLIMIT_AS, policy.addressSpaceBytes);
  const std::uint64_t procs = clampToHard(RLIMIT_NPROC, static_cast<std::uint64_t>(std::max(1, nproc)));
  const std::uint64_t fsize = clampToHard(RLIMIT_FSIZE, policy.maxFileSizeBytes);
  const std::uint64_t files =
      clampToHard(RLIMIT_NOFILE, static_cast<std::uint64_t>(std::max(16, policy.maxOpenFiles)));
  return {host.prlimitPath,
          limitArg("cpu", cpu, std::max(cpu, cpuHard)),
          limitArg("as", as, as),
          limitArg("nproc", procs, procs),
          limitArg("fsize", fsize, fsize),
          limitArg("nofile", files, files),
          "--core=0:0",
          "--"};
}

SandboxLaunch buildBubblewrapLaunch(const SandboxPolicy& policy, const SandboxHost& host,
                                    const std::string& scratch, const std::vector<std::string>& readOnly,
                                    const std::vector<std::string>& argv,
                                    const std::vector<std::string>& writable) {
  SandboxLaunch launch;
  launch.isolation = "bubblewrap";
  if (host.bwrapPath.empty() || host.prlimitPath.empty()) {
    launch.error = host.bwrapPath.empty() ? "bubblewrap (bwrap) is not installed"
                                          : "prlimit (util-linux) is not installed";
    return launch;
  }
  if (host.runningAsRoot && host.setprivPath.empty()) {
    launch.error = "running as root but setpriv (util-linux) is missing: cannot drop to an unprivileged user";
    return launch;
  }

  std::vector<std::string> cmd = dropRootPrefix(policy, host);
  cmd.push_back(host.bwrapPath);
  // Namespaces: user, pid, net, ipc, uts, cgroup. The program gets its own pid 1 (bwrap), so when that
  // dies everything in the sandbox dies with it.
  append(cmd, {"--unshare-all", "--unshare-user"});
  if (host.bwrapHasDisableUserns) cmd.push_back("--disable-userns");  // no nested namespaces
  if (policy.allowNetwork) cmd.push_back("--share-net");
  append(cmd, {"--die-with-parent", "--new-session"});

  // A read-only system: /usr, the /bin-/lib* entries (symlinks into /usr on merged-/usr systems), and
  // only the few /etc files a dynamically linked program needs.
  cmd.insert(cmd.end(), {"--ro-bind", "/usr", "/usr"});
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    struct stat st {};
    if (lstat(top, &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      char target[4096];
      ssize_t n = readlink(top, target, sizeof target - 1);
      if (n <= 0) continue;
      append(cmd, {"--symlink", std::string(target, static_cast<std::size_t>(n)), top});
    } else if (S_ISDIR(st.st_mode)) {
      append(cmd, {"--ro-bind", top, top});
    }
  }
  for (const char* etc : {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
                          "/etc/localtime", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf"})
    append(cmd, {"--ro-bind-try", etc, etc});
  append(cmd, {"--proc", "/proc", "--dev", "/dev"});
  const std::string tmpfsSize = std::to_string(policy.tmpfsBytes);
  if (host.bwrapHasTmpfsSize) append(cmd, {"--perms", "1777", "--size", tmpfsSize});
  append(cmd, {"--tmpfs", "/dev/shm"});
  if (host.bwrapHasTmpfsSize) append(cmd, {"--size", tmpfsSize});
  append(cmd, {"--tmpfs", "/tmp"});
  for (const auto& path : readOnly) append(cmd, {"--ro-bind", path, path});
  for (const auto& path : writable) append(cmd, {"--bind", path, path});
  // The scratch folder last, so it is writable even when it sits inside a read-only path. As a tmpfs it
  // is capped in total and private to the run: the host folder is only the mount point's name.
  if (policy.scratchTmpfsBytes > 0 && host.bwrapHasTmpfsSize)
    append(cmd, {"--perms", "0700", "--size", std::to_string(policy.scratchTmpfsBytes), "--tmpfs", scratch,
                 "--chdir", scratch});
  else
    append(cmd, {"--bind", scratch, scratch, "--chdir", scratch});
  // The root and /dev are tmpfs mounts the sandbox user owns: make them read-only so that nothing can
  // be written outside the scratch folder and the size-limited /tmp and /dev/shm.
  append(cmd, {"--remount-ro", "/dev", "--remount-ro", "/"});

  cmd.push_back("--clearenv");
  SandboxPolicy envPolicy = policy;
  envPolicy.scratchDir = scratch;
  for (const auto& [k, v] : sandboxEnvironment(envPolicy, "/tmp")) append(cmd, {"--setenv", k, v});

  launch.spec = baseSpec(policy, scratch);
  if (!policy.allowNetwork && host.seccompFilterPath) {
    append(cmd, {"--seccomp", "3"});
    launch.spec.inheritedFiles.push_back({3, *host.seccompFilterPath});
  } else if (!policy.allowNetwork) {
    launch.warnings.push_back(
        sandboxSetupWarning("network attempts are blocked by the network namespace but cannot be "
                            "reported as violations: " +
                            host.seccompProblem));
  }
  cmd.push_back("--");

  // RLIMIT_NPROC is counted per user namespace: the sandbox's namespace starts with bwrap's own pid 1,
  // the program comes on top.
  launch.processLimit = policy.maxProcesses;
  std::vector<std::string> limits = prlimitArguments(policy, host, launch.processLimit);
  cmd.insert(cmd.end(), limits.begin(), limits.end());
  cmd.insert(cmd.end(), argv.begin(), argv.end());
  launch.spec.argv = std::move(cmd);
  return launch;
}

SandboxLaunch buildRlimitsOnlyLaunch(const SandboxPolicy& policy, const SandboxHost& host,
                                     const std::string& scratch, const std::vector<std::string>& argv) {
  SandboxLaunch launch;
  launch.isolation = "rlimits-only";
  launch.spawnedProcessIsProgram = true;
  if (host.prlimitPath.empty()) {
    launch.error = "prlimit (util-linux) is not installed: not even resource limits can be applied";
    return launch;
  }
  std::vector<std::string> cmd = dropRootPrefix(policy, host);
  // Without a user namespace RLIMIT_NPROC counts every task of the user, so the limit is what that user
  // already runs plus the allowance (approximate: other processes of the user come and go).
  uid_t countedUser = getuid();
  if (host.runningAsRoot) {
    if (host.setprivPath.empty())
      launch.warnings.push_back(
          sandboxSetupWarning("running as root without setpriv: the program runs as root, which "
                              "ignores the process limit and may write anywhere"));
    else
      countedUser = policy.sandboxUid;
  }
  launch.processLimit = countTasksOfUser(countedUser) + policy.maxProcesses;

  std::vector<std::string> limits = prlimitArguments(policy, host, launch.processLimit);
  cmd.insert(cmd.end(), limits.begin(), limits.end());
  cmd.insert(cmd.end(), argv.begin(), argv.end());
  launch.spec = baseSpec(policy, scratch);
  launch.spec.argv = std::move(cmd);
  SandboxPolicy envPolicy = policy;
  envPolicy.scratchDir = scratch;
  launch.spec.environment = sandboxEnvironment(envPolicy, scratch);
  return launch;
}

}  // namespace kwb
