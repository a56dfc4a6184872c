// SPDX-License-Identifier: MIT
#pragma once
// Runs one external program: posix_spawn with an argv (never a shell), environment and working
// directory control, stdout/stderr captured up to a cap, per-line callbacks, a timeout that kills the
// whole process group, and cancellation from another thread.
//
// The child is the leader of a new process group. Whenever the run ends (normal exit, timeout,
// cancellation) every process still in that group is killed, so helpers a tool leaves behind do not
// outlive the run. Processes that leave the group on purpose (setsid) are out of reach; the runner stops
// reading their output shortly after the leader has exited instead of waiting for them.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH when it has no '/'
  std::optional<std::string> workingDirectory;
  // Environment: when inheritEnvironment is true the parent's environment is the base, without the
  // LLM's secrets (isSecretEnvironmentName: compilers and candidates never need a key); `environment`
  // entries override it and `unsetEnvironment` names are removed.
  bool inheritEnvironment = true;
  std::map<std::string, std::string> environment;
  std::vector<std::string> unsetEnvironment;
  std::optional<std::string> stdinData;  // written to the child's stdin, then closed
  std::chrono::milliseconds timeout{0};  // 0 = none
  std::size_t outputCap =
      std::size_t{16} * 1024 * 1024;  // per stream; beyond it output is dropped and flagged
  std::function<void(const std::string& line)> onStdoutLine;  // called on the runner's thread
  std::function<void(const std::string& line)> onStderrLine;
  const std::atomic<bool>* cancel = nullptr;  // set to true from any thread to kill the group

  // --- Extensions (all optional; defaults keep the behaviour above). ---
  // On timeout or cancellation the group gets SIGTERM, then SIGKILL once this grace has passed.
  std::chrono::milliseconds killGrace{300};
  // Kill the group as soon as a stream passes outputCap instead of draining it to the end (for
  // untrusted programs that may print forever). Reported as outputCapKilled.
  bool killOnOutputCap = false;
  // Files opened read-only in the child at the given descriptor numbers (e.g. a seccomp filter for
  // bwrap at fd 3). Every other descriptor above 2 is closed in the child.
  struct InheritedFile {
    int fd = 3;
    std::string path;
  };
  std::vector<InheritedFile> inheritedFiles;
  // Called on the runner's thread right after the child has been spawned, with its pid (also its
  // process group id). Must not block.
  std::function<void(int pid)> onStarted;
};

// Variables an inherited environment never passes on to a child: every KWB_LLM_* setting, names that
// end in _API_KEY, _API_TOKEN, _AUTH_TOKEN, _ACCESS_TOKEN or _SECRET_KEY (any case), and the variable
// that `keyVariable` names (the parent's $KWB_LLM_API_KEY_ENV: the key may live under any name).
bool isSecretEnvironmentName(std::string_view name, std::string_view keyVariable);

struct ProcessResult {
  bool started = false;  // false: spawn failed, see startError
  std::string startError;
  bool exited = false;  // normal exit: exitCode valid
  int exitCode = -1;
  bool signaled = false;  // killed by a signal: signal valid
  int signal = 0;
  bool timedOut = false;
  bool cancelled = false;
  bool outputCapKilled = false;  // killed because a stream passed outputCap (killOnOutputCap)
  std::string stdoutText;
  std::string stderrText;
  bool stdoutTruncated = false;
  bool stderrTruncated = false;
  std::chrono::milliseconds elapsed{0};
  std::string commandLine;  // shell-quoted, re-runnable (cd DIR && ENV=... argv...)
  int pid = -1;             // the child's pid while it ran (-1 when it never started)

  bool ok() const {
    return started && exited && exitCode == 0 && !timedOut && !cancelled && !outputCapKilled;
  }
  // "exit status 2", "killed by signal 11 (SIGSEGV: Segmentation fault)", "timed out after 5000 ms",
  // ... plus the command line.
  std::string describe() const;
  // Just the outcome ("exit status 2", "killed by signal 9 (SIGKILL: Killed)", ...), no command.
  std::string describeOutcome() const;
};

class ProcessRunner {
 public:
  ProcessResult run(const ProcessSpec& spec) const;
};

// Quotes one argument for a POSIX shell so that printed commands can be pasted back.
std::string shellQuote(const std::string& arg);

// The re-runnable shell form of a spec: `cd DIR && VAR=value prog 'arg 1'`; `env -i ...` when the
// environment is not inherited, `env -u NAME ...` for removed variables, ` 3<FILE` for inherited files.
std::string formatCommandLine(const ProcessSpec& spec);

// "SIGSEGV" for 11, "SIG42" for signals without a name.
std::string signalName(int sig);
// "SIGSEGV: Segmentation fault".
std::string signalDescription(int sig);

}  // namespace kwb
