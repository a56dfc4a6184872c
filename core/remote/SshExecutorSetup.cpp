// SPDX-License-Identifier: MIT
#include "core/remote/SshExecutorSetup.h"

#include <unistd.h>
#include <stdexcept>

#include "core/process/ProcessRunner.h"

namespace kwb::remote {

namespace fs = std::filesystem;

namespace {
const char* const kSafePathRule = "must be an absolute path of letters, digits and / _ . - + @ : , (got ";
}  // namespace

std::string effectiveSshConfig(const SshOptions& options, const EnvLookup& env) {
  if (!options.configFile.empty()) return options.configFile;
  return env ? env("KWB_SSH_CONFIG").value_or("") : std::string();
}

SshOptionProblems checkSshOptions(const SshOptions& options, const EnvLookup& env) {
  SshOptionProblems p;
  std::string error;
  if (!parseSshUrl(options.url, error)) p.url = error;
  const std::string config = effectiveSshConfig(options, env);
  std::error_code ec;
  if (!config.empty() && !fs::is_regular_file(config, ec))
    p.configFile = "the ssh config " + config + " is not a file";
  if (!options.remoteDir.empty() && !isSafeRemotePath(options.remoteDir))
    p.remoteDir = kSafePathRule + options.remoteDir + ")";
  if (!options.remoteCann.empty() && !isSafeRemotePath(options.remoteCann))
    p.remoteCann = kSafePathRule + options.remoteCann + ")";
  return p;
}

std::unique_ptr<SshExecutorSetup> SshExecutorSetup::make(const SshOptions& o, std::string& error,
                                                         const EnvLookup& env) {
  const SshOptionProblems problems = checkSshOptions(o, env);
  if (!problems.url.empty()) {
    error = problems.url;
    return nullptr;
  }
  if (!problems.configFile.empty()) {
    error = problems.configFile + " (--ssh-config / KWB_SSH_CONFIG)";
    return nullptr;
  }
  if (!problems.remoteDir.empty()) {
    error = "--remote-dir " + problems.remoteDir;
    return nullptr;
  }
  if (!problems.remoteCann.empty()) {
    error = "--remote-cann " + problems.remoteCann;
    return nullptr;
  }
  std::unique_ptr<SshExecutorSetup> s(new SshExecutorSetup());
  s->settings_.ssh.target = *parseSshUrl(o.url, error);
  s->settings_.ssh.configFile = effectiveSshConfig(o, env);
  s->settings_.remoteDir = o.remoteDir;
  s->settings_.keepRemoteWorkspace = o.keepRemote;
  s->remoteCann_ = o.remoteCann;
  // One shared connection for the many short remote commands of a run (ControlMaster), its socket in a
  // folder only this user can enter; a short path, as sockets' paths are limited to ~100 bytes.
  std::string tmpl = "/tmp/kwb-ssh-XXXXXX";
  if (mkdtemp(tmpl.data()) != nullptr) {
    s->controlDir_ = tmpl;
    s->settings_.ssh.controlDir = tmpl;
  }
  return s;
}

SshExecutorSetup::~SshExecutorSetup() {
  if (controlDir_.empty()) return;
  ProcessSpec spec;
  spec.argv = sshArgv(settings_.ssh, "true");
  // `ssh -O exit HOST` asks the shared connection's master to end; the command after -- is ignored.
  spec.argv.insert(spec.argv.begin() + 1, {"-O", "exit"});
  spec.timeout = std::chrono::milliseconds(5000);
  spec.stdinData = std::string();
  ProcessRunner().run(spec);
  std::error_code ec;
  fs::remove_all(controlDir_, ec);
}

bool SshExecutorSetup::probe(std::string& error) {
  const std::lock_guard<std::mutex> lock(probeMutex_);
  if (facts_) return true;
  const SshSession session(settings_.ssh);
  auto facts = probeRemoteHost(session, remoteCann_, error);
  if (!facts) return false;
  facts_ = std::make_shared<const RemoteHostFacts>(std::move(*facts));
  return true;
}

std::shared_ptr<const RemoteHostFacts> SshExecutorSetup::probedFacts() const {
  const std::lock_guard<std::mutex> lock(probeMutex_);
  return facts_;
}

BackendFactory SshExecutorSetup::backendFactory() const {
  auto settings = settings_;
  auto facts = probedFacts();
  return [settings, facts](const BackendOptions& options) -> std::unique_ptr<Backend> {
    return std::make_unique<RemoteCannBackend>(options, settings, facts);
  };
}

BackendFactory SshExecutorSetup::probingBackendFactory(const std::shared_ptr<SshExecutorSetup>& setup) {
  if (!setup) throw std::invalid_argument("probingBackendFactory: no ssh setup");
  return [setup](const BackendOptions& options) -> std::unique_ptr<Backend> {
    std::string error;
    if (!setup->probe(error))
      throw std::runtime_error("the remote host " + setup->settings().ssh.target.url() +
                               " did not answer: " + error);
    return std::make_unique<RemoteCannBackend>(options, setup->settings(), setup->probedFacts());
  };
}

}  // namespace kwb::remote
