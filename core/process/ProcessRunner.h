#pragma once
// Runs one external program: posix_spawn with an argv (never a shell), environment and working
// directory control, stdout/stderr captured up to a cap, per-line callbacks, a timeout that kills the
// whole process group, and cancellation from another thread.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kwb {

struct ProcessSpec {
  std::vector<std::string> argv;               // argv[0] is looked up in PATH when it has no '/'
  std::optional<std::string> workingDirectory;
  // Environment: when inheritEnvironment is true the parent's environment is the base; `environment`
  // entries override it and `unsetEnvironment` names are removed.
  bool inheritEnvironment = true;
  std::map<std::string, std::string> environment;
  std::vector<std::string> unsetEnvironment;
  std::optional<std::string> stdinData;        // written to the child's stdin, then closed
  std::chrono::milliseconds timeout{0};        // 0 = none
  std::size_t outputCap = 16 * 1024 * 1024;    // per stream; beyond it output is dropped and flagged
  std::function<void(const std::string& line)> onStdoutLine;  // called on the runner's thread
  std::function<void(const std::string& line)> onStderrLine;
  const std::atomic<bool>* cancel = nullptr;   // set to true from any thread to kill the group
};

struct ProcessResult {
  bool started = false;       // false: spawn failed, see startError
  std::string startError;
  bool exited = false;        // normal exit: exitCode valid
  int exitCode = -1;
  bool signaled = false;      // killed by a signal: signal valid
  int signal = 0;
  bool timedOut = false;
  bool cancelled = false;
  std::string stdoutText;
  std::string stderrText;
  bool stdoutTruncated = false;
  bool stderrTruncated = false;
  std::chrono::milliseconds elapsed{0};
  std::string commandLine;    // shell-quoted, re-runnable (cd DIR && ENV=... argv...)

  bool ok() const { return started && exited && exitCode == 0 && !timedOut && !cancelled; }
  // "exit status 2", "killed by signal 11 (SIGSEGV)", "timed out after 5000 ms", ... plus command.
  std::string describe() const;
};

class ProcessRunner {
 public:
  ProcessResult run(const ProcessSpec& spec) const;
};

// Quotes one argument for a POSIX shell so that printed commands can be pasted back.
std::string shellQuote(const std::string& arg);

}  // namespace kwb
