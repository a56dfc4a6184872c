// SPDX-License-Identifier: MIT
// The ssh executor's pure parts: ssh:// addresses, the ssh argv, ssh failures told apart on stderr
// captured from a real ssh against the loopback sshd (tests/fixtures/ssh/), the remote run command.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/remote/RemoteRunScript.h"
#include "core/remote/SshCommands.h"

using namespace kwb::remote;

namespace {
std::string fixture(const std::string& name) {
  std::ifstream in(std::string(KWB_FIXTURES_DIR) + "/ssh/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST(SshCommands, ParsesAddresses) {
  std::string error;
  auto t = parseSshUrl("ssh://ascend@npu-07.lab:2222", error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->user, "ascend");
  EXPECT_EQ(t->host, "npu-07.lab");
  EXPECT_EQ(t->port, 2222);
  EXPECT_EQ(t->url(), "ssh://ascend@npu-07.lab:2222");
  t = parseSshUrl("ssh://npu-07", error);
  ASSERT_TRUE(t) << error;
  EXPECT_TRUE(t->user.empty());
  EXPECT_EQ(t->port, 0);
  t = parseSshUrl("ssh://me@[::1]:22", error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->host, "::1");
}

TEST(SshCommands, RejectsBadAddressesSayingWhy) {
  std::string error;
  EXPECT_FALSE(parseSshUrl("npu-07", error));
  EXPECT_NE(error.find("not an ssh:// address"), std::string::npos);
  EXPECT_FALSE(parseSshUrl("ssh://-oProxyCommand=evil", error));
  EXPECT_NE(error.find("bad host"), std::string::npos);
  EXPECT_FALSE(parseSshUrl("ssh://-l@host", error));
  EXPECT_NE(error.find("bad user"), std::string::npos);
  EXPECT_FALSE(parseSshUrl("ssh://me@host:0", error));
  EXPECT_NE(error.find("bad port"), std::string::npos);
  EXPECT_FALSE(parseSshUrl("ssh://me@host:99999", error));
  EXPECT_FALSE(parseSshUrl("ssh://me@host:", error));
  EXPECT_FALSE(parseSshUrl("ssh://me@ho st", error));
  EXPECT_FALSE(parseSshUrl("ssh://me@host;rm", error));
}

TEST(SshCommands, ArgvIsBatchModeAndEndsWithTheCommand) {
  SshSettings s;
  s.target = {"ascend", "npu-07", 2222};
  s.configFile = "/home/me/kwb_ssh_config";
  s.controlDir = "/tmp/kwb-ssh-abc";
  const auto argv = sshArgv(s, "echo hi");
  ASSERT_GE(argv.size(), 4u);
  EXPECT_EQ(argv.front(), "ssh");
  auto has = [&](const std::string& a, const std::string& b) {
    for (std::size_t i = 0; i + 1 < argv.size(); ++i)
      if (argv[i] == a && argv[i + 1] == b) return true;
    return false;
  };
  EXPECT_TRUE(has("-o", "BatchMode=yes"));
  EXPECT_TRUE(has("-F", "/home/me/kwb_ssh_config"));
  EXPECT_TRUE(has("-p", "2222"));
  EXPECT_TRUE(has("-l", "ascend"));
  EXPECT_TRUE(has("-o", "ControlPath=/tmp/kwb-ssh-abc/%C"));
  EXPECT_EQ(argv[argv.size() - 3], "npu-07");
  EXPECT_EQ(argv[argv.size() - 2], "--");
  EXPECT_EQ(argv.back(), "echo hi");
  // Never a password or a key of ours.
  for (const auto& a : argv) {
    EXPECT_EQ(a.find("Password"), std::string::npos) << a;
    EXPECT_NE(a, "-i");
  }
}

TEST(SshCommands, ClassifiesCapturedFailures) {
  const SshTarget t{"root", "127.0.0.1", 55619};
  EXPECT_EQ(classifySshFailure(255, fixture("connection_refused.stderr"), t).kind,
            SshFailureKind::Unreachable);
  EXPECT_EQ(classifySshFailure(255, fixture("unknown_host.stderr"), t).kind, SshFailureKind::Unreachable);
  const SshFailure auth = classifySshFailure(255, fixture("auth_failed.stderr"), t);
  EXPECT_EQ(auth.kind, SshFailureKind::AuthFailed);
  EXPECT_NE(auth.message.find("ssh agent"), std::string::npos) << auth.message;
  EXPECT_NE(auth.message.find("Permission denied (publickey)"), std::string::npos) << auth.message;
  const SshFailure key = classifySshFailure(255, fixture("host_key_unknown.stderr"), t);
  EXPECT_EQ(key.kind, SshFailureKind::HostKey);
  EXPECT_NE(key.message.find("known_hosts"), std::string::npos);
  // Any other status is the remote command's own.
  EXPECT_EQ(classifySshFailure(1, fixture("auth_failed.stderr"), t).kind, SshFailureKind::None);
  EXPECT_EQ(classifySshFailure(0, "", t).kind, SshFailureKind::None);
  EXPECT_EQ(classifySshFailure(-1, "", t, "No such file or directory").kind, SshFailureKind::Other);
}

TEST(SshCommands, RemoteRunCommandQuotesEveryWord) {
  RemoteRunRequest r;
  r.script = "/home/a/w/kwb-remote/run.sh";
  r.seconds = 30;
  r.workDir = "/home/a/w/cases/c0/work";
  r.readOnly = {"/home/a/w/kernel_app"};
  r.writable = {"/home/a/w/cases/c0/out"};
  r.environment = {{"LD_LIBRARY_PATH", "/opt/x/lib64"}};
  r.argv = {"/home/a/w/kernel_app", "kernel", "it's"};
  EXPECT_EQ(remoteRunCommand(r),
            "sh /home/a/w/kwb-remote/run.sh 30 /home/a/w/cases/c0/work ro=/home/a/w/kernel_app "
            "rw=/home/a/w/cases/c0/out env=LD_LIBRARY_PATH=/opt/x/lib64 -- /home/a/w/kernel_app kernel "
            "'it'\\''s'");
  EXPECT_EQ(remoteIsolation("x\nkwb-remote: isolation bubblewrap\n"), "bubblewrap");
  EXPECT_EQ(remoteIsolation("kwb-remote: isolation rlimits-only (no bwrap)\n"), "rlimits-only");
  EXPECT_EQ(remoteIsolation("nothing"), "");
}
