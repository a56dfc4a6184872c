// SPDX-License-Identifier: MIT
#pragma once
// Runs untrusted programs (candidates, generated harnesses) under a SandboxPolicy: bubblewrap
// namespaces (no network, read-only system, private /tmp, writable scratch only) plus rlimits and a
// wall timeout; rlimits only, with a loud warning, where bubblewrap cannot be used. Outcomes become
// shared Diagnostics: `sandbox-violation`, `timeout`, `runtime-crash`, and `sandbox-setup` for a
// sandbox that could not be built. See docs/sandbox.md.

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"
#include "core/process/ProcessRunner.h"
#include "core/sandbox/SandboxPolicy.h"

namespace kwb {

struct SandboxRun {
  std::vector<std::string> argv;  // argv[0]: absolute, relative to the scratch folder, or found in PATH
  std::optional<std::string> stdinData;
  std::function<void(const std::string& line)> onStdoutLine;  // called on the running thread
  std::function<void(const std::string& line)> onStderrLine;
  const std::atomic<bool>* cancel = nullptr;  // set from any thread to stop the run
};

struct SandboxResult {
  std::string isolation;  // "bubblewrap", "rlimits-only", or "none" when nothing ran
  ProcessResult process;  // of the outer command (setpriv/bwrap/prlimit); its commandLine re-runs it
  // The program's own outcome. Under bubblewrap a death by signal N arrives as exit code 128+N (bwrap
  // reports it like a shell does) and is decoded here, so signaled/signal describe the program.
  bool exited = false;
  int exitCode = -1;
  bool signaled = false;
  int signal = 0;
  bool timedOut = false;
  bool cancelled = false;
  int processLimit = 0;               // the RLIMIT_NPROC value applied
  int peakTasks = 0;                  // most tasks (processes + threads) seen in the sandbox at once
  std::string memoryLimit;            // the aggregate memory cap applied ("cgroup v1 N bytes"), empty: none
  std::uint64_t peakMemoryBytes = 0;  // highest memory use of all processes together (cgroup only)
  bool memoryLimitHit = false;        // the aggregate cap was reached
  // Where the run's wall time went (kwb eval --timings): preparing the scratch folder, the launch and the
  // memory cgroup before the spawn, then the process from spawn to exit (which includes bubblewrap's own
  // namespace setup: it cannot be told apart from outside).
  double setupMs = 0.0;
  double processMs = 0.0;
  std::vector<Diagnostic> diagnostics;

  // Ran and exited 0, and nothing at error severity was diagnosed.
  bool ok() const;
  const std::string& commandLine() const { return process.commandLine; }
  const std::string& stdoutText() const { return process.stdoutText; }
  const std::string& stderrText() const { return process.stderrText; }
  bool hasCategory(std::string_view category) const;
};

// run() is const and may be called from several threads at once; give concurrent runs distinct
// scratch folders.
class Sandbox {
 public:
  explicit Sandbox(SandboxPolicy policy);

  // Never throws for a bad program or a hostile one: everything is reported in the result.
  SandboxResult run(const SandboxRun& request) const;
  SandboxResult run(const std::vector<std::string>& argv) const;

  const SandboxPolicy& policy() const { return policy_; }

  // bubblewrap is installed and a trial sandbox works on this machine (probed once, then cached).
  static bool bubblewrapAvailable();
  // What isolation runs get here, in one paragraph (for `kwb doctor`).
  static std::string isolationDescription();

 private:
  SandboxPolicy policy_;
};

}  // namespace kwb
