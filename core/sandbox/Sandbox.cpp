// SPDX-License-Identifier: MIT
#include "core/sandbox/Sandbox.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/sandbox/MemoryCgroup.h"
#include "core/sandbox/ProcessCensus.h"
#include "core/sandbox/SandboxCommand.h"
#include "core/sandbox/SandboxHost.h"
#include "core/sandbox/SandboxOutcome.h"

namespace kwb {

namespace {

namespace fs = std::filesystem;

constexpr std::chrono::milliseconds kCensusInterval{50};

std::string octal(mode_t mode) {
  char buf[8];
  snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

// What `uid`/`gid` may do with a file, from its mode bits (no ACLs; the sandbox user has no capabilities).
unsigned permissionBits(const struct stat& st, unsigned uid, unsigned gid) {
  if (st.st_uid == uid) return (st.st_mode >> 6) & 7;
  if (st.st_gid == gid) return (st.st_mode >> 3) & 7;
  return st.st_mode & 7;
}

// Empty when the sandbox user can reach `path` (search on every parent; read, plus search for folders,
// on the path itself), else what stops it.
std::string reachProblem(const fs::path& path, unsigned uid, unsigned gid) {
  fs::path prefix = "/";
  std::vector<fs::path> chain;
  for (const auto& part : path.relative_path()) chain.push_back(prefix /= part);
  for (std::size_t i = 0; i < chain.size(); ++i) {
    struct stat st {};
    if (stat(chain[i].c_str(), &st) != 0) return "'" + chain[i].string() + "' does not exist";
    const bool last = i + 1 == chain.size();
    unsigned need = last ? (S_ISDIR(st.st_mode) ? 5u : 4u) : 1u;
    if ((permissionBits(st, uid, gid) & need) != need)
      return "'" + chain[i].string() + "' has mode " + octal(st.st_mode) + " (owner uid " +
             std::to_string(st.st_uid) + "), which uid " + std::to_string(uid) + " cannot " +
             (last ? "read" : "pass through") + "; make it world-" + (last ? "readable" : "searchable") +
             " (chmod o+" + (last ? (S_ISDIR(st.st_mode) ? "rx" : "r") : "x") + ") or use another folder";
  }
  return {};
}

bool isWithin(const fs::path& path, const fs::path& dir) {
  auto rel = path.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

SandboxResult setupFailure(const std::string& message, std::string commandLine = {}) {
  SandboxResult r;
  r.isolation = "none";
  r.process.startError = message;
  r.process.commandLine = std::move(commandLine);
  Diagnostic d;
  d.source = "sandbox";
  d.severity = Severity::Error;
  d.category = std::string(category::SandboxSetup);
  d.message = "the sandbox could not be set up: " + message;
  if (!r.process.commandLine.empty()) d.message += "; command: " + r.process.commandLine;
  r.diagnostics.push_back(std::move(d));
  return r;
}

}  // namespace

bool SandboxResult::ok() const {
  return process.started && exited && exitCode == 0 && !timedOut && !cancelled &&
         std::none_of(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) { return d.isError(); });
}

bool SandboxResult::hasCategory(std::string_view category) const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [&](const Diagnostic& d) { return d.category == category; });
}

Sandbox::Sandbox(SandboxPolicy policy) : policy_(std::move(policy)) {}

bool Sandbox::bubblewrapAvailable() {
  return sandboxHost().bwrapUsable;
}

std::string Sandbox::isolationDescription() {
  return sandboxHost().describe();
}

SandboxResult Sandbox::run(const std::vector<std::string>& argv) const {
  SandboxRun request;
  request.argv = argv;
  return run(request);
}

SandboxResult Sandbox::run(const SandboxRun& request) const {
  const auto setupStart = std::chrono::steady_clock::now();
  const SandboxHost& host = sandboxHost();
  if (request.argv.empty() || request.argv[0].empty())
    return setupFailure("no program given (argv is empty)");
  if (policy_.scratchDir.empty()) return setupFailure("the policy has no scratch folder");

  bool useBwrap = false;
  std::vector<Diagnostic> warnings;
  switch (policy_.isolation) {
    case SandboxIsolation::Bubblewrap:
      if (!host.bwrapUsable)
        return setupFailure("bubblewrap was required but cannot be used: " + host.bwrapProblem);
      useBwrap = true;
      break;
    case SandboxIsolation::Auto:
      useBwrap = host.bwrapUsable;
      break;
    case SandboxIsolation::RlimitsOnly:
      break;
  }
  if (!useBwrap) {
    Diagnostic d;
    d.source = "sandbox";
    d.severity = Severity::Warning;
    d.category = std::string(category::SandboxSetup);
    d.message =
        "NOT ISOLATED: the program runs with resource limits only (" +
        (policy_.isolation == SandboxIsolation::RlimitsOnly ? std::string("rlimits-only was requested")
                                                            : host.bwrapProblem) +
        "). It can read every file its user can read, write wherever that user may write, and use "
        "the network. Install bubblewrap (apt-get install bubblewrap) for real isolation.";
    warnings.push_back(std::move(d));
  }

  // The scratch folder: created, canonical, and owned by the sandbox user when we are root.
  std::error_code ec;
  fs::create_directories(policy_.scratchDir, ec);
  fs::path scratch = fs::canonical(policy_.scratchDir, ec);
  if (ec || !fs::is_directory(scratch))
    return setupFailure("scratch folder '" + policy_.scratchDir.string() +
                        "' cannot be created or is not a folder" +
                        (ec ? ": " + ec.message() : std::string()));
  std::vector<std::string> readOnly;
  for (const auto& p : policy_.readOnlyPaths) {
    fs::path canonical = fs::canonical(p, ec);
    if (ec) return setupFailure("read-only path '" + p.string() + "' does not exist: " + ec.message());
    readOnly.push_back(canonical.string());
  }
  std::vector<std::string> writable;
  for (const auto& p : policy_.writableFiles) {
    struct stat st {};
    if (lstat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
      return setupFailure("writable file '" + p.string() + "' must be an existing regular file (not a link)");
    writable.push_back(fs::canonical(p, ec).string());
  }
  if (!useBwrap && policy_.scratchTmpfsBytes > 0)
    warnings.push_back(sandboxSetupWarning("the scratch folder is the host folder " + scratch.string() +
                                           ", not a size-capped tmpfs: its total size is not limited"));

  const bool dropsRoot = host.runningAsRoot && !host.setprivPath.empty();
  if (dropsRoot) {
    auto handOver = [&](const fs::path& p) {
      if (lchown(p.c_str(), policy_.sandboxUid, policy_.sandboxGid) != 0)
        return "cannot hand '" + p.string() + "' to uid " + std::to_string(policy_.sandboxUid) + ": " +
               std::string(strerror(errno));
      return std::string();
    };
    std::string problem = handOver(scratch);
    for (auto it = fs::recursive_directory_iterator(scratch, ec); problem.empty() && !ec && it != fs::end(it);
         it.increment(ec))
      problem = handOver(it->path());
    if (problem.empty() && ec) problem = "cannot walk the scratch folder: " + ec.message();
    for (const auto& w : writable)
      if (problem.empty()) problem = handOver(w);
    if (problem.empty()) problem = reachProblem(scratch, policy_.sandboxUid, policy_.sandboxGid);
    for (const auto& p : readOnly)
      if (problem.empty()) problem = reachProblem(p, policy_.sandboxUid, policy_.sandboxGid);
    if (!problem.empty()) return setupFailure(problem);
  }

  // An absolute program must be somewhere the sandbox shows.
  const std::string& program = request.argv[0];
  if (program[0] == '/') {
    fs::path where = fs::weakly_canonical(program, ec);
    bool visible = !useBwrap || isWithin(where, scratch);
    for (const char* sys : {"/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc"})
      visible = visible || isWithin(where, sys);
    for (const auto& p : readOnly) visible = visible || where == fs::path(p) || isWithin(where, p);
    if (!visible)
      return setupFailure("the program '" + program +
                          "' is outside every folder bound into the sandbox; add its "
                          "folder to SandboxPolicy::readOnlyPaths");
    if (dropsRoot) {
      std::string problem = reachProblem(where, policy_.sandboxUid, policy_.sandboxGid);
      if (!problem.empty()) return setupFailure(problem);
    }
  }

  SandboxLaunch launch =
      useBwrap ? buildBubblewrapLaunch(policy_, host, scratch.string(), readOnly, request.argv, writable)
               : buildRlimitsOnlyLaunch(policy_, host, scratch.string(), request.argv);
  if (!launch.error.empty()) return setupFailure(launch.error, formatCommandLine(launch.spec));
  launch.spec.stdinData = request.stdinData;
  launch.spec.onStdoutLine = request.onStdoutLine;
  launch.spec.onStderrLine = request.onStderrLine;
  launch.spec.cancel = request.cancel;

  // The aggregate memory cap: a cgroup of the run's own that every process of the run is born into.
  std::unique_ptr<MemoryCgroup> cgroup;
  std::string cgroupProblem;
  if (policy_.totalMemoryBytes > 0) {
    cgroup = MemoryCgroup::create(policy_.totalMemoryBytes, cgroupProblem);
    if (!cgroup)
      warnings.push_back(sandboxSetupWarning(
          "MEMORY NOT CAPPED IN TOTAL: " + cgroupProblem + ". Each process is still limited to " +
          std::to_string(policy_.addressSpaceBytes >> 20) + " MiB of address space (RLIMIT_AS), but up to " +
          std::to_string(policy_.maxProcesses) + " processes may hold that much at once"));
  }
  if (cgroup) {
    // The first process joins the cgroup itself, before it execs the sandbox: moving it from here
    // after the spawn would race with bwrap, whose children may already exist by then. /bin/sh is part
    // of the trusted system, and the command line stays re-runnable.
    std::vector<std::string> argv = {"/bin/sh", "-c", "echo $$ > \"$0\" && exec \"$@\"",
                                     (cgroup->path() / "cgroup.procs").string()};
    argv.insert(argv.end(), launch.spec.argv.begin(), launch.spec.argv.end());
    launch.spec.argv = std::move(argv);
  }
  TaskCountSampler census;
  launch.spec.onStarted = [&](int pid) {
    census.start(pid, launch.spawnedProcessIsProgram, kCensusInterval);
  };

  SandboxResult r;
  r.isolation = launch.isolation;
  r.processLimit = launch.processLimit;
  const auto spawnAt = std::chrono::steady_clock::now();
  r.setupMs = std::chrono::duration<double, std::milli>(spawnAt - setupStart).count();
  r.process = ProcessRunner().run(launch.spec);
  r.processMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - spawnAt).count();
  r.peakTasks = census.stop();
  if (cgroup) {
    r.memoryLimit = cgroup->kind() + " " + std::to_string(cgroup->limitBytes()) + " bytes";
    r.peakMemoryBytes = cgroup->peakBytes();
    r.memoryLimitHit = cgroup->limitHit();
    cgroup.reset();
  }
  r.timedOut = r.process.timedOut;
  r.cancelled = r.process.cancelled;
  r.exited = r.process.exited;
  r.exitCode = r.process.exitCode;
  r.signaled = r.process.signaled;
  r.signal = r.process.signal;
  // bwrap reports a program killed by signal N as exit status 128+N.
  if (useBwrap && r.exited && r.exitCode > 128 && r.exitCode - 128 <= SIGRTMAX) {
    r.exited = false;
    r.signaled = true;
    r.signal = r.exitCode - 128;
    r.exitCode = -1;
  }
  if (!r.process.started) {
    SandboxResult failed = setupFailure(r.process.startError, r.process.commandLine);
    failed.process = r.process;
    return failed;
  }
  r.diagnostics = std::move(warnings);
  r.diagnostics.insert(r.diagnostics.end(), launch.warnings.begin(), launch.warnings.end());
  const bool seccompActive = useBwrap && !policy_.allowNetwork && host.seccompFilterPath.has_value();
  for (auto& d : diagnoseSandboxOutcome(policy_, r, seccompActive)) r.diagnostics.push_back(std::move(d));
  return r;
}

}  // namespace kwb
