// SPDX-License-Identifier: MIT
#include "core/sandbox/SandboxOutcome.h"

#include <signal.h>

#include <algorithm>
#include <cctype>
#include <optional>

#include "core/model/Diagnostic.h"

namespace kwb {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The first output line (stderr first, then stdout) containing one of `needles` (case-insensitive),
// trimmed for quoting.
std::optional<std::string> findLine(const SandboxResult& r, std::initializer_list<const char*> needles) {
  for (const std::string* text : {&r.stderrText(), &r.stdoutText()}) {
    std::size_t start = 0;
    while (start < text->size()) {
      std::size_t end = text->find('\n', start);
      if (end == std::string::npos) end = text->size();
      std::string line = text->substr(start, end - start);
      start = end + 1;
      std::string low = lower(line);
      for (const char* needle : needles) {
        if (low.find(needle) == std::string::npos) continue;
        if (line.size() > 200) line = line.substr(0, 200) + "...";
        return line;
      }
    }
  }
  return std::nullopt;
}

class Collector {
 public:
  explicit Collector(const SandboxResult& r) : result_(r) {}
  void add(Severity severity, std::string_view category, const std::string& message) {
    for (const auto& d : out_)
      if (d.category == category && d.message.rfind(message, 0) == 0) return;
    Diagnostic d;
    d.source = "sandbox";
    d.severity = severity;
    d.category = std::string(category);
    d.message = message + "; re-run: " + result_.commandLine();
    out_.push_back(std::move(d));
  }
  std::vector<Diagnostic> take() { return std::move(out_); }

 private:
  const SandboxResult& result_;
  std::vector<Diagnostic> out_;
};

std::string howItEnded(const SandboxResult& r) {
  if (r.signaled) return "the program died of " + signalDescription(r.signal);
  return "the program exited with status " + std::to_string(r.exitCode);
}

}  // namespace

std::string formatBytes(std::uint64_t bytes) {
  if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1ull << 10) && bytes % (1ull << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

std::vector<Diagnostic> diagnoseSandboxOutcome(const SandboxPolicy& policy, const SandboxResult& r,
                                               bool seccompActive) {
  Collector c(r);
  const ProcessResult& p = r.process;
  if (r.isolation == "bubblewrap" && p.exited && p.exitCode == 1 && r.stderrText().rfind("bwrap: ", 0) == 0) {
    // bwrap's own set-up failed before the program started.
    c.add(Severity::Error, category::SandboxSetup,
          "bubblewrap could not set up the sandbox: " + r.stderrText().substr(0, r.stderrText().find('\n')));
    return c.take();
  }
  if (r.cancelled) return c.take();  // stopped on request: not the program's fault

  const std::string limitBytes = formatBytes(policy.addressSpaceBytes);
  auto memoryLine = findLine(r, {"bad_alloc", "cannot allocate memory", "out of memory", "memory exhausted"});

  if (p.outputCapKilled) {
    std::string stream = p.stdoutTruncated ? "stdout" : "stderr";
    c.add(Severity::Error, category::SandboxViolation,
          "the program's " + stream + " passed the output cap of " + formatBytes(policy.outputCap) +
              " and the program was killed (print less, or write large results to files in the scratch "
              "folder)");
  } else if (r.timedOut) {
    c.add(Severity::Error, category::Timeout,
          "the wall-clock limit of " + std::to_string(policy.wallTimeout.count()) +
              " ms was exceeded; the sandbox and every process in it were killed");
  } else if (r.signaled) {
    if (r.signal == SIGXCPU) {
      c.add(Severity::Error, category::Timeout,
            "the CPU-time limit of " + std::to_string(policy.cpuSeconds) + " s was exceeded (SIGXCPU)");
    } else if (r.signal == SIGXFSZ) {
      c.add(Severity::Error, category::SandboxViolation,
            "a file grew past the file-size limit of " + formatBytes(policy.maxFileSizeBytes) + " (SIGXFSZ)");
    } else if (r.signal == SIGSYS && seccompActive) {
      c.add(Severity::Error, category::SandboxViolation,
            "the program tried to open a network socket; network access is not allowed in the sandbox "
            "(killed by the seccomp filter with SIGSYS)");
    } else if (memoryLine) {
      c.add(Severity::Error, category::SandboxViolation,
            "an allocation failed under the address-space limit of " + limitBytes + " (\"" + *memoryLine +
                "\") and " + howItEnded(r));
    } else {
      std::string message = howItEnded(r);
      if (r.signal == SIGKILL)
        message +=
            " (not sent by the sandbox's timeout: the CPU hard limit or the kernel's out-of-memory killer)";
      else if (r.signal == SIGSEGV || r.signal == SIGBUS)
        message += " (an unchecked allocation failing under the address-space limit of " + limitBytes +
                   " also ends this way)";
      c.add(Severity::Error, category::RuntimeCrash, message);
    }
  } else if (r.exited && r.exitCode != 0 && memoryLine) {
    c.add(Severity::Error, category::SandboxViolation,
          "an allocation failed under the address-space limit of " + limitBytes + " (\"" + *memoryLine +
              "\") and " + howItEnded(r));
  }

  // Walls that were hit whatever the ending.
  if (r.memoryLimitHit)
    c.add(Severity::Error, category::SandboxViolation,
          "the processes of the run together reached the aggregate memory limit of " +
              formatBytes(policy.totalMemoryBytes) + " (" + r.memoryLimit + ", peak " +
              formatBytes(r.peakMemoryBytes) + "); allocations failed or a process was killed");
  if (auto line = findLine(r, {"read-only file system"}))
    c.add(Severity::Error, category::SandboxViolation,
          "a write outside the scratch folder was refused (read-only file system): \"" + *line + "\"");
  else if (auto denied = findLine(r, {"permission denied", "operation not permitted"}))
    c.add(Severity::Error, category::SandboxViolation,
          "an operation was refused by the sandbox's permissions: \"" + *denied + "\"");

  // Under bubblewrap RLIMIT_NPROC counts exactly the sandbox's user namespace, which is the tree the
  // census walks. Without it the kernel counts every task of the user, and other tasks of that user
  // come and go during the run, so the tree may stop a little short of the allowance.
  const int allowance = r.isolation == "bubblewrap" ? r.processLimit : std::max(1, policy.maxProcesses - 2);
  auto forkLine = findLine(
      r, {"cannot fork", "fork: resource temporarily unavailable", "resource temporarily unavailable"});
  if (r.peakTasks >= allowance || (forkLine && r.peakTasks >= allowance / 2)) {
    c.add(Severity::Error, category::SandboxViolation,
          "the process limit of " + std::to_string(policy.maxProcesses) + " tasks was reached (peak " +
              std::to_string(r.peakTasks) +
              " processes and threads): the program creates processes or "
              "threads without bound (a fork bomb?)");
  }
  return c.take();
}

}  // namespace kwb
