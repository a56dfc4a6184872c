// SPDX-License-Identifier: MIT
#pragma once
// The system `ssh` as the workbench uses it to reach a remote NPU host (docs/suites.md, "SSH"):
// `ssh://user@host[:port]` targets, the argv of one remote command (BatchMode: keys only from the
// user's agent and ssh config, never a password prompt, never a key of ours), and what a failed
// connection means. Pure functions; core/remote/SshSession.h runs them with the process layer.

#include <optional>
#include <string>
#include <vector>

namespace kwb::remote {

struct SshTarget {
  std::string user;  // empty: ssh's default (the config's User, else the local user name)
  std::string host;
  int port = 0;  // 0: ssh's default (the config's Port, else 22)
  // "ssh://user@host:port" as given (normalised).
  std::string url() const;
};

// Parses `ssh://[user@]host[:port]`. User: letters, digits, `_ . -` (not first); host: a name of
// letters, digits, `. - _` (not starting with `-`) or a bracketed IPv6 address; port 1..65535. nullopt
// with `error` saying what was wrong otherwise.
std::optional<SshTarget> parseSshUrl(const std::string& url, std::string& error);

struct SshSettings {
  SshTarget target;
  std::string configFile;  // -F FILE (KWB_SSH_CONFIG); empty: the user's ~/.ssh/config
  std::string controlDir;  // connection sharing sockets (ControlPath DIR/%C); empty: none
  int connectTimeoutSeconds = 10;
};

// ssh -o BatchMode=yes -o ConnectTimeout=N ... [-F FILE] [-p PORT] [-l USER] HOST -- COMMAND.
// `remoteCommand` is one POSIX shell command line for the remote login shell.
std::vector<std::string> sshArgv(const SshSettings& settings, const std::string& remoteCommand);

// Joins argv for the remote shell, each word quoted (shellQuote).
std::string remoteCommandLine(const std::vector<std::string>& argv);

enum class SshFailureKind { None, Unreachable, AuthFailed, HostKey, Other };

struct SshFailure {
  SshFailureKind kind = SshFailureKind::None;
  std::string message;  // what happened and how to fix it; empty for None
};

// ssh exits 255 for its own failures; its stderr says which. Anything else is the remote command's
// status (None). `spawnError` set: ssh itself could not be started.
SshFailure classifySshFailure(int exitCode, const std::string& stderrText, const SshTarget& target,
                              const std::string& spawnError = {});

}  // namespace kwb::remote
