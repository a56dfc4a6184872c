// SPDX-License-Identifier: MIT
#pragma once
// The ssh executor's setup for `kwb suite run --executor ssh://...` and `kwb doctor --host`: the ssh
// settings from the options and KWB_SSH_CONFIG, a private folder for ssh's shared connections, and
// the host's probe (docs/suites.md, "SSH").

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/agent/FactoryBackendEvaluator.h"
#include "core/remote/RemoteCannBackend.h"

namespace kwb::cli {

struct SshOptions {
  std::string url;          // ssh://user@host[:port]
  std::string configFile;   // --ssh-config (default $KWB_SSH_CONFIG)
  std::string remoteDir;    // --remote-dir
  std::string remoteCann;   // --remote-cann
  bool keepRemote = false;  // --keep-remote: leave each evaluation's remote workspace in place
};

// Owns the connection-sharing folder; closes the shared connection and removes it on destruction.
class SshExecutorSetup {
 public:
  // nullopt with `error` for a bad address or option.
  static std::unique_ptr<SshExecutorSetup> make(const SshOptions& options, std::string& error);
  ~SshExecutorSetup();
  SshExecutorSetup(const SshExecutorSetup&) = delete;
  SshExecutorSetup& operator=(const SshExecutorSetup&) = delete;

  // Probes the host once; false with `error` (unreachable, authentication, no answer).
  bool probe(std::string& error);
  const remote::RemoteHostFacts& facts() const { return *facts_; }
  const remote::RemoteBackendSettings& settings() const { return settings_; }
  const std::string& remoteCann() const { return remoteCann_; }
  // Makes the remote ascend-cann backend of every evaluation.
  FactoryBackendEvaluator::Factory backendFactory() const;

 private:
  SshExecutorSetup() = default;
  remote::RemoteBackendSettings settings_;
  std::string remoteCann_;
  std::filesystem::path controlDir_;
  std::shared_ptr<const remote::RemoteHostFacts> facts_;
};

}  // namespace kwb::cli
