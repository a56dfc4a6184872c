// SPDX-License-Identifier: MIT
#include "app/kwb/SshExecutorSetup.h"

#include <unistd.h>
#include <cstdlib>

#include "core/process/ProcessRunner.h"

namespace kwb::cli {

namespace fs = std::filesystem;

std::unique_ptr<SshExecutorSetup> SshExecutorSetup::make(const SshOptions& o, std::string& error) {
  auto target = remote::parseSshUrl(o.url, error);
  if (!target) return nullptr;
  std::unique_ptr<SshExecutorSetup> s(new SshExecutorSetup());
  s->settings_.ssh.target = *target;
  s->settings_.ssh.configFile = o.configFile;
  if (s->settings_.ssh.configFile.empty())
    if (const char* env = std::getenv("KWB_SSH_CONFIG")) s->settings_.ssh.configFile = env;
  std::error_code ec;
  if (!s->settings_.ssh.configFile.empty() && !fs::is_regular_file(s->settings_.ssh.configFile, ec)) {
    error =
        "the ssh config " + s->settings_.ssh.configFile + " (--ssh-config / KWB_SSH_CONFIG) is not a file";
    return nullptr;
  }
  if (!o.remoteDir.empty() && !remote::isSafeRemotePath(o.remoteDir)) {
    error = "--remote-dir must be an absolute path of letters, digits and / _ . - + @ : , (got " +
            o.remoteDir + ")";
    return nullptr;
  }
  if (!o.remoteCann.empty() && !remote::isSafeRemotePath(o.remoteCann)) {
    error = "--remote-cann must be an absolute path of letters, digits and / _ . - + @ : , (got " +
            o.remoteCann + ")";
    return nullptr;
  }
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
  spec.argv = remote::sshArgv(settings_.ssh, "true");
  // `ssh -O exit HOST` asks the shared connection's master to end; the command after -- is ignored.
  spec.argv.insert(spec.argv.begin() + 1, {"-O", "exit"});
  spec.timeout = std::chrono::milliseconds(5000);
  spec.stdinData = std::string();
  ProcessRunner().run(spec);
  std::error_code ec;
  fs::remove_all(controlDir_, ec);
}

bool SshExecutorSetup::probe(std::string& error) {
  const remote::SshSession session(settings_.ssh);
  auto facts = remote::probeRemoteHost(session, remoteCann_, error);
  if (!facts) return false;
  facts_ = std::make_shared<const remote::RemoteHostFacts>(std::move(*facts));
  return true;
}

FactoryBackendEvaluator::Factory SshExecutorSetup::backendFactory() const {
  auto settings = settings_;
  auto facts = facts_;
  return [settings, facts](const BackendOptions& options) -> std::unique_ptr<Backend> {
    return std::make_unique<remote::RemoteCannBackend>(options, settings, facts);
  };
}

}  // namespace kwb::cli
