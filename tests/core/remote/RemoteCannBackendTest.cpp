// SPDX-License-Identifier: MIT
// The remote ascend-cann backend against a real sshd on loopback (tests/services/start-sshd.sh) whose
// logins see the CANN stand-in toolkit in its own folder; this side's environment names no toolkit.
// Skipped where sshd is not installed.
#include <gtest/gtest.h>

#include <chrono>

#include <unistd.h>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/eval/Evaluator.h"
#include "core/model/Task.h"
#include "core/remote/RemoteCannBackend.h"

using namespace kwb;
using namespace kwb::remote;
namespace fs = std::filesystem;

namespace {
std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
std::string envLine(const fs::path& envFile, const std::string& name) {
  std::ifstream in(envFile);
  std::string line;
  const std::string prefix = "export " + name + "=";
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  return {};
}

class RemoteCannBackendTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // ctest runs each test in its own process, several at once: each gets its own sshd and folders.
    root_ = fs::path(KWB_TEST_BIN_DIR) / ("remote-cann-test-" + std::to_string(getpid()));
    std::error_code ec;
    fs::remove_all(root_, ec);
    fs::create_directories(root_);
    fs::copy(fs::path(KWB_FIXTURES_DIR) / "cann_standin", root_ / "remote-cann", fs::copy_options::recursive);
    const std::string cmd = std::string(KWB_SOURCE_DIR) + "/tests/services/start-sshd.sh " +
                            (root_ / "sshd").string() + " " + (root_ / "remote-cann").string() +
                            " > /dev/null 2>&1";
    started_ = std::system(cmd.c_str()) == 0;
  }
  static void TearDownTestSuite() {
    const std::string cmd =
        std::string(KWB_SOURCE_DIR) + "/tests/services/stop-sshd.sh " + (root_ / "sshd").string();
    (void)std::system(cmd.c_str());
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  void SetUp() override {
    if (!started_) GTEST_SKIP() << "no sshd here (openssh-server)";
    std::string error;
    auto target = parseSshUrl(envLine(root_ / "sshd" / "env", "KWB_SSH_URL"), error);
    ASSERT_TRUE(target) << error;
    settings_.ssh.target = *target;
    settings_.ssh.configFile = envLine(root_ / "sshd" / "env", "KWB_SSH_CONFIG");
    settings_.remoteDir = (root_ / "remote-ws").string();
    auto facts = probeRemoteHost(SshSession(settings_.ssh), "", error);
    ASSERT_TRUE(facts) << error;
    facts_ = std::make_shared<const RemoteHostFacts>(*facts);
  }
  EvalReport evalWith(const std::string& source, const std::string& label,
                      RemoteCannBackend** out = nullptr) {
    BackendOptions o;
    o.soc = "Ascend910B1";
    backend_ = std::make_unique<RemoteCannBackend>(o, settings_, facts_);
    if (out) *out = backend_.get();
    Task t = loadTaskDir(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "add_custom");
    t.cases.resize(1);
    EvalRequest r;
    r.candidateSource = source;
    r.seed = 7;
    r.workDir = root_ / "work" / label;
    r.cacheDir = root_ / "cache";
    return evaluate(t, *backend_, r);
  }
  static inline fs::path root_;
  static inline bool started_ = false;
  RemoteBackendSettings settings_;
  std::shared_ptr<const RemoteHostFacts> facts_;
  std::unique_ptr<RemoteCannBackend> backend_;
  const std::string expert_ =
      readText(fs::path(KWB_SOURCE_DIR) / "resources/tasks/add_custom/expert_candidate.cpp");
};
}  // namespace

TEST_F(RemoteCannBackendTest, BuildsAndRunsRemotelyUnderMsprofAndParsesWhatComesBack) {
  ASSERT_TRUE(facts_->cann);
  EXPECT_EQ(facts_->cann->root, (root_ / "remote-cann").string());
  RemoteCannBackend* b = nullptr;
  const EvalReport r = evalWith(expert_, "runtime", &b);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->mode(), "sim");
  EXPECT_EQ(r.ranOn, RanOn::CannSim);
  ASSERT_TRUE(r.compile.has_value());
  EXPECT_TRUE(r.compile->ok) << r.compile->log;
  EXPECT_NE(r.compile->commandLine.find("--npu-arch=dav-2201"), std::string::npos);
  EXPECT_NE(r.compile->commandLine.find(settings_.ssh.target.url()), std::string::npos);
  // Built in the remote workspace, not here.
  EXPECT_TRUE(fs::exists(fs::path(b->remoteWorkspace()) / "kernel_app"));
  EXPECT_EQ(b->remoteWorkspace().rfind(settings_.remoteDir, 0), 0u);
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << nlohmann::json(r).dump(2);
  bool parsed = false;
  for (const auto& d : r.diagnostics)
    if (d.source == "runtime" && d.message.find("507035") != std::string::npos) parsed = true;
  EXPECT_TRUE(parsed) << nlohmann::json(r.diagnostics).dump(2);
  ASSERT_TRUE(r.profile.is_object()) << r.profile.dump();
  EXPECT_EQ(r.profile.value("tool", ""), "msprof op simulator");
  EXPECT_DOUBLE_EQ(r.profile.value("task_duration_us", 0.0), 12.34);
  EXPECT_EQ(r.profile["busiest_pipe"].value("pipe", ""), "mte2");
  // The tiling ran remotely and was judged here: the stand-in's block dim 8.
  ASSERT_FALSE(r.runs.empty());
  EXPECT_EQ(r.runs[0].tiling.blockDim, 8);
}

TEST_F(RemoteCannBackendTest, RemoteWorkspacesAreRemovedAtTheEndAndStaleOnesBeforeABuild) {
  // A workspace a killed run left two days ago, and one another run uses now.
  const fs::path stale = fs::path(settings_.remoteDir) / "w-00000000deadbeef";
  const fs::path busy = fs::path(settings_.remoteDir) / "w-00000000cafef00d";
  const fs::path other = fs::path(settings_.remoteDir) / "not-a-workspace";
  for (const auto& d : {stale, busy, other}) fs::create_directories(d / "sub");
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(48);
  fs::last_write_time(stale, old);
  fs::last_write_time(other, old);
  RemoteCannBackend* b = nullptr;
  const EvalReport r = evalWith(expert_, "cleanup", &b);
  ASSERT_TRUE(r.compile.has_value() && r.compile->ok) << nlohmann::json(r).dump(2);
  const fs::path workspace = b->remoteWorkspace();
  EXPECT_TRUE(fs::exists(workspace / "kernel_app"));
  EXPECT_FALSE(fs::exists(stale)) << "a w-* folder untouched for 48 h goes before the build";
  EXPECT_TRUE(fs::exists(busy)) << "a fresh one stays";
  EXPECT_TRUE(fs::exists(other)) << "only w-* folders are the backend's";
  backend_.reset();
  EXPECT_FALSE(fs::exists(workspace)) << "the evaluation's workspace goes with the backend";
  settings_.keepRemoteWorkspace = true;
  evalWith(expert_, "kept", &b);
  const fs::path kept = b->remoteWorkspace();
  backend_.reset();
  EXPECT_TRUE(fs::exists(kept / "kernel_app")) << "keepRemoteWorkspace keeps it";
  fs::remove_all(busy);
  fs::remove_all(other);
}

TEST_F(RemoteCannBackendTest, RemoteCompileErrorsPointAtTheCandidateLine) {
  std::string src = expert_;
  const auto pos = src.find("    Add(z, x, y, n);");
  ASSERT_NE(pos, std::string::npos);
  src.insert(pos, "    KWB_STANDIN_COMPILE_ERROR;\n");
  int line = 1;
  for (std::size_t i = 0; i < pos; ++i) line += src[i] == '\n';
  const EvalReport r = evalWith(src, "compile_error");
  ASSERT_EQ(r.verdict, Verdict::CompileError) << nlohmann::json(r).dump(2);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics.front().file, "kernel.cpp");
  EXPECT_EQ(r.diagnostics.front().line, line);
}

TEST_F(RemoteCannBackendTest, AHostWithoutAToolkitSaysSo) {
  auto facts = std::make_shared<RemoteHostFacts>(*facts_);
  facts->cann.reset();
  facts_ = facts;
  const EvalReport r = evalWith(expert_, "none");
  EXPECT_NE(r.verdict, Verdict::Pass);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics.front().message.find("no CANN toolkit found on ssh://"), std::string::npos);
  EXPECT_TRUE(r.runs.empty());
}

TEST_F(RemoteCannBackendTest, AHostThatGoesAwaySaysUnreachable) {
  settings_.ssh.target.port = 1;  // nothing listens there
  const EvalReport r = evalWith(expert_, "gone");
  EXPECT_NE(r.verdict, Verdict::Pass);
  bool said = false;
  for (const auto& d : r.diagnostics)
    if (d.message.find("unreachable") != std::string::npos) said = true;
  EXPECT_TRUE(said) << nlohmann::json(r.diagnostics).dump(2);
}
