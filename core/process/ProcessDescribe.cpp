// SPDX-License-Identifier: MIT
// The printable side of the process runner: shell quoting, the re-runnable command line, signal names
// and the one-line outcome used in every error message.

#include <signal.h>
#include <string.h>

#include <algorithm>
#include <set>

#include "core/process/ProcessRunner.h"

namespace kwb {

namespace {

bool isShellSafe(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == '/' || c == ',' || c == ':' || c == '@' || c == '%' || c == '+' || c == '=';
}

bool isEnvName(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace

std::string shellQuote(const std::string& arg) {
  if (!arg.empty() && std::all_of(arg.begin(), arg.end(), isShellSafe) && arg[0] != '=') return arg;
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += "'";
  return out;
}

std::string formatCommandLine(const ProcessSpec& spec) {
  std::string out;
  if (spec.workingDirectory) out += "cd " + shellQuote(*spec.workingDirectory) + " && ";

  // `NAME=value prog` only works for plain names added on top of the inherited environment; anything
  // else goes through env(1), which says exactly what the child saw.
  const bool plainNames = std::all_of(spec.environment.begin(), spec.environment.end(),
                                      [](const auto& kv) { return isEnvName(kv.first); });
  const bool useEnv = !spec.inheritEnvironment || !spec.unsetEnvironment.empty() || !plainNames;
  if (useEnv) {
    out += "env";
    if (!spec.inheritEnvironment) {
      out += " -i";
    } else {
      std::set<std::string> unset(spec.unsetEnvironment.begin(), spec.unsetEnvironment.end());
      for (const auto& name : unset)
        if (!spec.environment.count(name)) out += " -u " + shellQuote(name);
    }
    for (const auto& [name, value] : spec.environment) out += " " + shellQuote(name + "=" + value);
    out += " ";
  } else {
    for (const auto& [name, value] : spec.environment) out += name + "=" + shellQuote(value) + " ";
  }

  for (std::size_t i = 0; i < spec.argv.size(); ++i) {
    if (i) out += " ";
    out += shellQuote(spec.argv[i]);
  }
  if (spec.argv.empty()) out += "''";
  for (const auto& f : spec.inheritedFiles) out += " " + std::to_string(f.fd) + "<" + shellQuote(f.path);
  return out;
}

std::string signalName(int sig) {
  if (const char* abbrev = sigabbrev_np(sig)) return std::string("SIG") + abbrev;
  if (sig >= SIGRTMIN && sig <= SIGRTMAX) return "SIGRTMIN+" + std::to_string(sig - SIGRTMIN);
  return "SIG" + std::to_string(sig);
}

std::string signalDescription(int sig) {
  std::string out = signalName(sig);
  if (const char* descr = sigdescr_np(sig)) out += std::string(": ") + descr;
  return out;
}

std::string ProcessResult::describeOutcome() const {
  if (!started) return "could not start: " + startError;
  std::string out;
  const std::string ms = std::to_string(elapsed.count()) + " ms";
  if (timedOut)
    out = "timed out after " + ms + "; the process group was killed";
  else if (cancelled)
    out = "cancelled after " + ms + "; the process group was killed";
  else if (outputCapKilled)
    out = "killed after " + ms + " because its output passed the capture cap";
  else if (signaled)
    out = "killed by signal " + std::to_string(signal) + " (" + signalDescription(signal) + ")";
  else if (exited)
    out = "exit status " + std::to_string(exitCode);
  else
    out = "ended in an unknown state";
  if (stdoutTruncated) out += "; stdout truncated at " + std::to_string(stdoutText.size()) + " bytes";
  if (stderrTruncated) out += "; stderr truncated at " + std::to_string(stderrText.size()) + " bytes";
  return out;
}

std::string ProcessResult::describe() const {
  return describeOutcome() + "\n  command: " + (commandLine.empty() ? std::string("(none)") : commandLine);
}

}  // namespace kwb
