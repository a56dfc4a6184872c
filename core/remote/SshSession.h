// SPDX-License-Identifier: MIT
#pragma once
// Runs remote commands through the system ssh (SshCommands.h) with the process layer: stdin data,
// output caps and timeouts as for any program, and ssh's own failures told apart from the command's.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "core/process/ProcessRunner.h"
#include "core/remote/SshCommands.h"

namespace kwb::remote {

struct RemoteRun {
  ProcessResult process;  // of the local ssh
  SshFailure failure;     // kind None: the connection worked and process' exit status is the command's
  bool connected() const { return failure.kind == SshFailureKind::None && process.started; }
};

class SshSession {
 public:
  explicit SshSession(SshSettings settings) : settings_(std::move(settings)) {}
  // `command`: one remote shell command line. `outputCap` bounds what is read from the remote (hostile
  // input); past it the run is killed and process.outputCapKilled is set.
  RemoteRun run(const std::string& command, std::optional<std::string> stdinData = std::nullopt,
                std::chrono::milliseconds timeout = std::chrono::milliseconds(120000),
                std::size_t outputCap = std::size_t{4} << 20) const;
  const SshSettings& settings() const { return settings_; }

 private:
  SshSettings settings_;
};

}  // namespace kwb::remote
