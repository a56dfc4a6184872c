// SPDX-License-Identifier: MIT
#include "core/remote/SshSession.h"

namespace kwb::remote {

RemoteRun SshSession::run(const std::string& command, std::optional<std::string> stdinData,
                          std::chrono::milliseconds timeout, std::size_t outputCap) const {
  ProcessSpec spec;
  spec.argv = sshArgv(settings_, command);
  spec.stdinData = std::move(stdinData);
  if (!spec.stdinData) spec.stdinData = std::string();  // never let ssh read the workbench's stdin
  spec.timeout = timeout;
  spec.outputCap = outputCap;
  spec.killOnOutputCap = true;
  RemoteRun r;
  r.process = ProcessRunner().run(spec);
  r.failure = classifySshFailure(r.process.exitCode, r.process.stderrText, settings_.target,
                                 r.process.started ? std::string() : r.process.startError);
  if (r.failure.kind == SshFailureKind::None && r.process.timedOut) {
    r.failure.kind = SshFailureKind::Unreachable;
    r.failure.message = settings_.target.url() + " did not answer within " +
                        std::to_string(timeout.count() / 1000) + " s (" + command.substr(0, 80) + "...)";
  }
  return r;
}

}  // namespace kwb::remote
