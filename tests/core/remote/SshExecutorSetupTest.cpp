// SPDX-License-Identifier: MIT
// The ssh executor's setup shared by the CLI and the workbench (core/remote/SshExecutorSetup.h): each
// option's problem on its own (the settings dialog shows them per field), the CLI's messages naming its
// options, KWB_SSH_CONFIG standing in for an empty config file, and a probing factory that fails an
// evaluation with the probe's message when the host does not answer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "core/remote/SshExecutorSetup.h"

using namespace kwb;
using namespace kwb::remote;
namespace fs = std::filesystem;

namespace {
EnvLookup envOf(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}
}  // namespace

TEST(SshExecutorSetup, EachOptionHasItsOwnProblem) {
  SshOptions o;
  o.url = "ssh://me@npu-1:70000";
  o.configFile = "/no/such/ssh_config";
  o.remoteDir = "relative/dir";
  o.remoteCann = "/opt/Ascend;reboot";
  const SshOptionProblems p = checkSshOptions(o, envOf({}));
  EXPECT_NE(p.url.find("bad port \"70000\""), std::string::npos) << p.url;
  EXPECT_EQ(p.configFile, "the ssh config /no/such/ssh_config is not a file");
  EXPECT_NE(p.remoteDir.find("must be an absolute path"), std::string::npos) << p.remoteDir;
  EXPECT_NE(p.remoteCann.find("(got /opt/Ascend;reboot)"), std::string::npos) << p.remoteCann;
  EXPECT_TRUE(p.any());

  SshOptions good;
  good.url = "ssh://me@npu-1:2222";
  good.remoteDir = "/scratch/kwb";
  EXPECT_FALSE(checkSshOptions(good, envOf({})).any());
}

TEST(SshExecutorSetup, KwbSshConfigStandsInForAnEmptyConfigFile) {
  SshOptions o;
  o.url = "ssh://me@npu-1";
  EXPECT_EQ(effectiveSshConfig(o, envOf({})), "");
  EXPECT_EQ(effectiveSshConfig(o, envOf({{"KWB_SSH_CONFIG", "/etc/kwb/ssh_config"}})), "/etc/kwb/ssh_config");
  const SshOptionProblems p = checkSshOptions(o, envOf({{"KWB_SSH_CONFIG", "/no/such/file"}}));
  EXPECT_EQ(p.configFile, "the ssh config /no/such/file is not a file");
  o.configFile = "/other";
  EXPECT_EQ(effectiveSshConfig(o, envOf({{"KWB_SSH_CONFIG", "/etc/kwb/ssh_config"}})), "/other");
}

TEST(SshExecutorSetup, TheCliMessagesNameTheirOptions) {
  std::string error;
  SshOptions o;
  o.url = "ssh://me@npu-1";
  o.remoteDir = "relative";
  EXPECT_EQ(SshExecutorSetup::make(o, error, envOf({})), nullptr);
  EXPECT_EQ(error.rfind("--remote-dir must be an absolute path", 0), 0u) << error;
  o.remoteDir.clear();
  o.configFile = "/no/such/ssh_config";
  EXPECT_EQ(SshExecutorSetup::make(o, error, envOf({})), nullptr);
  EXPECT_NE(error.find("(--ssh-config / KWB_SSH_CONFIG)"), std::string::npos) << error;
  o.configFile.clear();
  o.url = "npu-1";
  EXPECT_EQ(SshExecutorSetup::make(o, error, envOf({})), nullptr);
  EXPECT_NE(error.find("is not an ssh:// address"), std::string::npos) << error;
}

TEST(SshExecutorSetup, AProbingFactoryFailsTheEvaluationWhenTheHostDoesNotAnswer) {
  // An empty ssh config and a port nobody listens on: ssh is refused at once, no network beyond loopback.
  const fs::path config = fs::temp_directory_path() / "kwb-ssh-setup-test-config";
  { std::ofstream(config) << "Host *\n  BatchMode yes\n"; }
  SshOptions o;
  o.url = "ssh://127.0.0.1:1";
  o.configFile = config.string();
  std::string error;
  std::shared_ptr<SshExecutorSetup> setup = SshExecutorSetup::make(o, error, envOf({}));
  ASSERT_NE(setup, nullptr) << error;
  EXPECT_EQ(setup->probedFacts(), nullptr);
  const BackendFactory factory = SshExecutorSetup::probingBackendFactory(setup);
  BackendOptions bo;
  bo.soc = "Ascend910B1";
  try {
    (void)factory(bo);
    ADD_FAILURE() << "a backend was made for a host that did not answer";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the remote host ssh://127.0.0.1:1 did not answer"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(setup->probedFacts(), nullptr);
  fs::remove(config);
}
