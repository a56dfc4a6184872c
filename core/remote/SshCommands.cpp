// SPDX-License-Identifier: MIT
#include "core/remote/SshCommands.h"

#include <algorithm>
#include <cctype>

#include "core/process/ProcessRunner.h"

namespace kwb::remote {

namespace {
bool userChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
}
bool hostChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
}
bool contains(const std::string& text, const char* needle) {
  return text.find(needle) != std::string::npos;
}
std::string firstLine(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
  const auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}
}  // namespace

std::string SshTarget::url() const {
  std::string u = "ssh://";
  if (!user.empty()) u += user + "@";
  u += host;
  if (port != 0) u += ":" + std::to_string(port);
  return u;
}

std::optional<SshTarget> parseSshUrl(const std::string& url, std::string& error) {
  const std::string scheme = "ssh://";
  if (url.rfind(scheme, 0) != 0) {
    error = "\"" + url + "\" is not an ssh:// address; expected ssh://user@host[:port]";
    return std::nullopt;
  }
  std::string rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  SshTarget t;
  if (const auto at = rest.find('@'); at != std::string::npos) {
    t.user = rest.substr(0, at);
    rest = rest.substr(at + 1);
    if (t.user.empty() || t.user.front() == '-' || !std::all_of(t.user.begin(), t.user.end(), userChar)) {
      error = "bad user name \"" + t.user + "\" in " + url + " (letters, digits, _ . -; not starting with -)";
      return std::nullopt;
    }
  }
  std::string portText;
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string::npos) {
      error = "unclosed [ in the host of " + url;
      return std::nullopt;
    }
    t.host = rest.substr(1, close - 1);
    const std::string after = rest.substr(close + 1);
    if (!after.empty() && after.front() != ':') {
      error = "unexpected \"" + after + "\" after the host of " + url;
      return std::nullopt;
    }
    if (!after.empty()) portText = after.substr(1);
    const bool ipv6 = !t.host.empty() && std::all_of(t.host.begin(), t.host.end(), [](char c) {
      return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
    });
    if (!ipv6) {
      error = "\"" + t.host + "\" in " + url + " is not an IPv6 address";
      return std::nullopt;
    }
  } else {
    const auto colon = rest.find(':');
    t.host = rest.substr(0, colon);
    if (colon != std::string::npos) portText = rest.substr(colon + 1);
    if (t.host.empty() || t.host.front() == '-' || !std::all_of(t.host.begin(), t.host.end(), hostChar)) {
      error = "bad host \"" + t.host + "\" in " + url + " (letters, digits, . - _; not starting with -)";
      return std::nullopt;
    }
  }
  if (!portText.empty() || (rest.find(':') != std::string::npos && rest.front() != '[')) {
    const bool digits = !portText.empty() && portText.size() <= 5 &&
                        std::all_of(portText.begin(), portText.end(),
                                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    const int port = digits ? std::stoi(portText) : 0;
    if (port < 1 || port > 65535) {
      error = "bad port \"" + portText + "\" in " + url + " (1..65535)";
      return std::nullopt;
    }
    t.port = port;
  }
  return t;
}

std::vector<std::string> sshArgv(const SshSettings& s, const std::string& remoteCommand) {
  std::vector<std::string> argv = {"ssh",
                                   "-o",
                                   "BatchMode=yes",
                                   "-o",
                                   "ConnectTimeout=" + std::to_string(std::max(1, s.connectTimeoutSeconds)),
                                   "-o",
                                   "ServerAliveInterval=15",
                                   "-o",
                                   "ServerAliveCountMax=4",
                                   "-T"};
  if (!s.configFile.empty()) argv.insert(argv.end(), {"-F", s.configFile});
  if (!s.controlDir.empty())
    argv.insert(argv.end(), {"-o", "ControlMaster=auto", "-o", "ControlPath=" + s.controlDir + "/%C", "-o",
                             "ControlPersist=30"});
  if (s.target.port != 0) argv.insert(argv.end(), {"-p", std::to_string(s.target.port)});
  if (!s.target.user.empty()) argv.insert(argv.end(), {"-l", s.target.user});
  argv.insert(argv.end(), {s.target.host, "--", remoteCommand});
  return argv;
}

std::string remoteCommandLine(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& a : argv) {
    if (!line.empty()) line += ' ';
    line += shellQuote(a);
  }
  return line;
}

SshFailure classifySshFailure(int exitCode, const std::string& stderrText, const SshTarget& target,
                              const std::string& spawnError) {
  SshFailure f;
  const std::string where = target.url();
  if (!spawnError.empty()) {
    f.kind = SshFailureKind::Other;
    f.message = "could not start ssh (" + spawnError + "); install the OpenSSH client (openssh-client)";
    return f;
  }
  if (exitCode != 255) return f;
  const std::string last = firstLine(stderrText);
  if (contains(stderrText, "Permission denied") || contains(stderrText, "Too many authentication failures") ||
      contains(stderrText, "no more authentication methods")) {
    f.kind = SshFailureKind::AuthFailed;
    f.message = "authentication to " + where + " failed (" + last +
                "); kwb uses only your ssh agent and ssh config (BatchMode, no passwords): add the key to "
                "ssh-agent or name it with IdentityFile, and check that `ssh " +
                (target.user.empty() ? "" : target.user + "@") + target.host + "` works without a prompt";
  } else if (contains(stderrText, "Host key verification failed") ||
             contains(stderrText, "REMOTE HOST IDENTIFICATION HAS CHANGED") ||
             contains(stderrText, "No ED25519 host key is known") ||
             contains(stderrText, "host key is known")) {
    f.kind = SshFailureKind::HostKey;
    f.message = "the host key of " + where + " is not known or has changed (" + last +
                "); connect once with ssh and verify the fingerprint, or add it to known_hosts";
  } else if (contains(stderrText, "Connection refused") ||
             contains(stderrText, "Could not resolve hostname") || contains(stderrText, "timed out") ||
             contains(stderrText, "No route to host") || contains(stderrText, "Network is unreachable") ||
             contains(stderrText, "Connection closed") || contains(stderrText, "Connection reset") ||
             contains(stderrText, "Name or service not known")) {
    f.kind = SshFailureKind::Unreachable;
    f.message =
        where + " is unreachable (" + last + "); check the host name, the port and that sshd runs there";
  } else {
    f.kind = SshFailureKind::Other;
    f.message = "ssh to " + where + " failed" + (last.empty() ? std::string() : " (" + last + ")");
  }
  return f;
}

}  // namespace kwb::remote
