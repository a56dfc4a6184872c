// SPDX-License-Identifier: MIT
// The remote host probe's answer read as hostile input, on answers captured from the loopback sshd
// (tests/fixtures/ssh/probe_*.txt) and forged ones; the host doctor's lines from them.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/doctor/RemoteDoctor.h"
#include "core/remote/RemoteHostProbe.h"

using namespace kwb;
using namespace kwb::remote;

namespace {
std::string fixture(const std::string& name) {
  std::ifstream in(std::string(KWB_FIXTURES_DIR) + "/ssh/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
const HostCheck* find(const HostDoctorReport& r, const std::string& name) {
  for (const auto& c : r.checks)
    if (c.name == name) return &c;
  return nullptr;
}
}  // namespace

TEST(RemoteHostProbe, ReadsTheStandinToolkitHost) {
  std::string error;
  auto f = parseRemoteProbe(fixture("probe_standin.txt"), error);
  ASSERT_TRUE(f) << error;
  EXPECT_EQ(f->home, "/root");
  ASSERT_TRUE(f->cann);
  EXPECT_EQ(f->cannFoundVia, "ASCEND_TOOLKIT_HOME");
  EXPECT_EQ(f->cannVersion.value_or(""), "8.1.RC1");
  ASSERT_TRUE(f->cann->bisheng);
  EXPECT_NE(f->cann->bisheng->find("compiler/ccec_compiler/bin/bisheng"), std::string::npos);
  EXPECT_TRUE(f->cann->msprof);
  EXPECT_EQ(f->simulatorSocs, std::vector<std::string>{"Ascend910B1"});
  EXPECT_TRUE(f->devices.empty());
  EXPECT_EQ(remoteRunMode(*f, "Ascend910B1"), "sim");  // no /dev/davinci there: never npu
  EXPECT_EQ(remoteRunMode(*f, "Ascend310P3"), "cpu");
  auto withDevice = *f;
  withDevice.devices = {"/dev/davinci0"};
  EXPECT_EQ(remoteRunMode(withDevice, "Ascend910B1"), "npu");
}

TEST(RemoteHostProbe, ALoginBannerBeforeTheAnswerIsIgnored) {
  std::string error;
  auto f = parseRemoteProbe(fixture("probe_no_toolkit.txt"), error);
  ASSERT_TRUE(f) << error;
  EXPECT_FALSE(f->cann);
  EXPECT_TRUE(f->bubblewrap);
}

TEST(RemoteHostProbe, HostileAnswersAreRejectedOrDropped) {
  std::string error;
  EXPECT_FALSE(parseRemoteProbe("root=/opt\n", error));
  EXPECT_NE(error.find("not the probe's"), std::string::npos);
  EXPECT_FALSE(parseRemoteProbe("kwb-probe 1\nhome=/root\n", error));  // cut short
  EXPECT_FALSE(parseRemoteProbe("kwb-probe 1\nhome=/ro ot;rm -rf\nkwb-probe end\n", error));
  EXPECT_NE(error.find("$HOME"), std::string::npos);
  auto f = parseRemoteProbe(
      "kwb-probe 1\nhome=/home/a\nroot=/opt/cann\nbisheng=/opt/cann/bin/bisheng;reboot\n"
      "msprof=/elsewhere/msprof\nsimulator=../../etc\ndevice=/etc/passwd\nversion=8.1 $(x)\nzzz=1\n"
      "kwb-probe end\n",
      error);
  ASSERT_TRUE(f) << error;
  ASSERT_TRUE(f->cann);
  EXPECT_FALSE(f->cann->bisheng);  // metacharacters
  EXPECT_FALSE(f->cann->msprof);   // outside the toolkit
  EXPECT_TRUE(f->simulatorSocs.empty());
  EXPECT_TRUE(f->devices.empty());
  EXPECT_FALSE(f->cannVersion);
  EXPECT_GE(f->warnings.size(), 4u);  // bisheng, msprof, the simulator, the unknown key
}

TEST(RemoteHostDoctor, LinesForEachOutcome) {
  std::string error;
  auto f = parseRemoteProbe(fixture("probe_standin.txt"), error);
  ASSERT_TRUE(f);
  HostDoctorReport r = hostDoctorFrom("ssh://root@127.0.0.1:2222", &*f, SshFailureKind::None, "");
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(find(r, "cann toolkit")->status, "ok");
  EXPECT_NE(find(r, "cann toolkit")->detail.find("8.1.RC1"), std::string::npos);
  EXPECT_EQ(find(r, "npu device")->status, "fail");
  EXPECT_FALSE(find(r, "npu device")->fix.empty());
  EXPECT_EQ(find(r, "msprof")->status, "ok");

  auto none = parseRemoteProbe(fixture("probe_no_toolkit.txt"), error);
  r = hostDoctorFrom("ssh://h", &*none, SshFailureKind::None, "");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(find(r, "cann toolkit")->status, "fail");
  EXPECT_NE(find(r, "cann toolkit")->fix.find("--remote-cann"), std::string::npos);

  r = hostDoctorFrom("ssh://h", nullptr, SshFailureKind::AuthFailed, "authentication to ssh://h failed");
  EXPECT_EQ(find(r, "reachable")->status, "ok");
  EXPECT_EQ(find(r, "authentication")->status, "fail");
  EXPECT_EQ(find(r, "cann toolkit")->status, "skipped");
  r = hostDoctorFrom("ssh://h", nullptr, SshFailureKind::Unreachable, "ssh://h is unreachable");
  EXPECT_EQ(find(r, "reachable")->status, "fail");
  EXPECT_EQ(find(r, "authentication")->status, "skipped");
  EXPECT_FALSE(r.ok());
}
