// SPDX-License-Identifier: MIT
#pragma once
// The ssh executor's setup, shared by `kwb suite run --executor ssh://...`, `kwb doctor --host` and the
// workbench's "Remote NPU host (SSH)" backend: the ssh settings from the options and KWB_SSH_CONFIG, a
// private folder for ssh's shared connection, the host's probe, and the factory of the remote
// ascend-cann backend of every evaluation (docs/suites.md, "SSH"; docs/workbench.md, "Settings").

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "core/base/Environment.h"
#include "core/remote/RemoteCannBackend.h"

namespace kwb::remote {

struct SshOptions {
  std::string url;          // ssh://user@host[:port]
  std::string configFile;   // the ssh config file (default $KWB_SSH_CONFIG, else ssh's ~/.ssh/config)
  std::string remoteDir;    // the remote folder of the workspaces (default ~/.cache/kwb-remote)
  std::string remoteCann;   // the remote toolkit (default: as the probe finds it)
  bool keepRemote = false;  // leave each evaluation's remote workspace in place
};

// What is wrong with each option, empty where nothing is: the address (parseSshUrl's message), the
// config file (after KWB_SSH_CONFIG stands in for an empty one), the remote folders (isSafeRemotePath).
// The messages name no command-line option, so the CLI and the settings dialog can both show them.
struct SshOptionProblems {
  std::string url;
  std::string configFile;
  std::string remoteDir;
  std::string remoteCann;
  bool any() const {
    return !url.empty() || !configFile.empty() || !remoteDir.empty() || !remoteCann.empty();
  }
};

SshOptionProblems checkSshOptions(const SshOptions& options, const EnvLookup& env = processEnvironment());

// The ssh config file the options use: their own, else $KWB_SSH_CONFIG; empty: ssh's ~/.ssh/config.
std::string effectiveSshConfig(const SshOptions& options, const EnvLookup& env = processEnvironment());

// A factory of the backend of each evaluation (FactoryBackendEvaluator::Factory's signature).
using BackendFactory = std::function<std::unique_ptr<Backend>(const BackendOptions&)>;

// Owns the connection-sharing folder; closes the shared connection and removes it on destruction.
// probe() may be called from several threads (the workbench probes for its status bar while the
// agent's first evaluation waits for the same answer).
class SshExecutorSetup {
 public:
  // nullptr with `error` for a bad address or option; the error names the CLI option it concerns.
  static std::unique_ptr<SshExecutorSetup> make(const SshOptions& options, std::string& error,
                                                const EnvLookup& env = processEnvironment());
  ~SshExecutorSetup();
  SshExecutorSetup(const SshExecutorSetup&) = delete;
  SshExecutorSetup& operator=(const SshExecutorSetup&) = delete;
  SshExecutorSetup(SshExecutorSetup&&) = delete;
  SshExecutorSetup& operator=(SshExecutorSetup&&) = delete;

  // Probes the host; false with `error` (unreachable, authentication, no answer). A successful answer
  // is kept: later calls return it without asking again; a failed one is asked again next time.
  bool probe(std::string& error);
  // The probe's answer; null before a successful probe.
  std::shared_ptr<const RemoteHostFacts> probedFacts() const;
  // The probe's answer; only after probe() returned true.
  const RemoteHostFacts& facts() const { return *probedFacts(); }
  const RemoteBackendSettings& settings() const { return settings_; }
  const std::string& remoteCann() const { return remoteCann_; }
  // Makes the remote ascend-cann backend of every evaluation with the facts probed so far (call after
  // probe() succeeded).
  BackendFactory backendFactory() const;
  // Makes it after probing the host when it has not answered yet (on the evaluating thread, so no
  // caller waits for ssh); a host that does not answer fails that evaluation with the probe's message.
  // The factory keeps `setup` (and so the shared connection) alive as long as it exists.
  static BackendFactory probingBackendFactory(const std::shared_ptr<SshExecutorSetup>& setup);

 private:
  SshExecutorSetup() = default;
  RemoteBackendSettings settings_;
  std::string remoteCann_;
  std::filesystem::path controlDir_;
  mutable std::mutex probeMutex_;  // one probe at a time; guards facts_
  std::shared_ptr<const RemoteHostFacts> facts_;
};

}  // namespace kwb::remote
