// SPDX-License-Identifier: MIT
// The sandbox mechanisms the trusted evaluation builds on (docs/sandbox.md, "Trusted evaluation"):
// a size-capped tmpfs scratch that leaves nothing on the host, result files that can be filled but
// never added to or replaced, and an aggregate memory cap over all processes of a run. Driven with the
// real misbehaving child (tests/helpers/kwb_test_child.cpp).

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/sandbox/MemoryCgroup.h"
#include "core/sandbox/Sandbox.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const std::string kChild = KWB_TEST_BIN_DIR "/kwb_test_child";

class SandboxTrust : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Sandbox::bubblewrapAvailable())
      GTEST_SKIP() << "bubblewrap cannot be used here: " << Sandbox::isolationDescription();
    root_ = fs::temp_directory_path() / ("kwb-sandbox-trust-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
    fs::permissions(root_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                               fs::perms::others_read | fs::perms::others_exec);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  SandboxPolicy policy() const {
    SandboxPolicy p;
    p.scratchDir = root_ / "work";
    p.readOnlyPaths = {fs::path(kChild).parent_path()};
    p.isolation = SandboxIsolation::Bubblewrap;
    p.wallTimeout = 20000ms;
    return p;
  }
  fs::path root_;
};

TEST_F(SandboxTrust, TmpfsScratchIsCappedInTotalAndLeavesNothingOnTheHost) {
  SandboxPolicy p = policy();
  p.scratchTmpfsBytes = 8u << 20;
  const SandboxResult r = Sandbox(p).run({kChild, "fill-cwd", "64"});
  ASSERT_TRUE(r.exited) << r.commandLine();
  const long written = std::stol(r.stdoutText());
  EXPECT_LE(written, 8l << 20) << "the scratch tmpfs must stop the program at its size";
  EXPECT_GT(written, 0);
  EXPECT_TRUE(fs::is_empty(p.scratchDir)) << "nothing written to a tmpfs scratch may reach the host folder";
}

TEST_F(SandboxTrust, HostScratchWithoutTmpfsIsWhereTheFilesGo) {
  // The contrast that makes the test above meaningful: without the tmpfs the same program fills the
  // host folder.
  SandboxPolicy p = policy();
  const SandboxResult r = Sandbox(p).run({kChild, "fill-cwd", "2"});
  ASSERT_TRUE(r.ok()) << r.commandLine();
  EXPECT_EQ(fs::file_size(p.scratchDir / "fill"), 2u << 20);
}

TEST_F(SandboxTrust, ResultFilesCanBeFilledButTheirFolderCannotChange) {
  const fs::path out = root_ / "out";
  fs::create_directories(out);
  { std::ofstream(out / "result.bin"); }
  SandboxPolicy p = policy();
  p.scratchTmpfsBytes = 1u << 20;
  p.readOnlyPaths.push_back(out);
  p.writableFiles = {out / "result.bin"};
  const SandboxResult wrote = Sandbox(p).run({kChild, "write-file", (out / "result.bin").string()});
  EXPECT_TRUE(wrote.ok()) << wrote.stdoutText() << wrote.commandLine();
  EXPECT_EQ(fs::file_size(out / "result.bin"), 1u);
  const SandboxResult planted = Sandbox(p).run({kChild, "create-file", (out / "planted").string()});
  EXPECT_FALSE(planted.ok());
  EXPECT_NE(planted.stdoutText().find("Read-only file system"), std::string::npos) << planted.stdoutText();
  EXPECT_FALSE(fs::exists(out / "planted"));
  // Anywhere else the program may write (its private /tmp) never reaches the host.
  Sandbox(p).run({kChild, "create-file", (root_ / "elsewhere").string()});
  EXPECT_FALSE(fs::exists(root_ / "elsewhere"));
}

TEST_F(SandboxTrust, WritableFileMustBeARegularFile) {
  const fs::path link = root_ / "link";
  fs::create_symlink("/etc/passwd", link);
  SandboxPolicy p = policy();
  p.writableFiles = {link};
  const SandboxResult r = Sandbox(p).run({kChild, "exit", "0"});
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.hasCategory(category::SandboxSetup));
}

TEST_F(SandboxTrust, AggregateMemoryIsCappedAcrossProcesses) {
  std::string problem;
  if (!MemoryCgroup::create(64u << 20, problem)) {
    // The loud fallback: the run says that the total is not capped.
    SandboxPolicy p = policy();
    p.totalMemoryBytes = 256u << 20;
    const SandboxResult r = Sandbox(p).run({kChild, "exit", "0"});
    bool warned = false;
    for (const auto& d : r.diagnostics)
      warned = warned || d.message.find("MEMORY NOT CAPPED IN TOTAL") != std::string::npos;
    EXPECT_TRUE(warned) << "no cgroup here (" << problem << "): the run must say so";
    GTEST_SKIP() << "no memory cgroup can be created here: " << problem;
  }
  SandboxPolicy p = policy();
  p.maxProcesses = 32;
  p.addressSpaceBytes = 1ull << 30;  // each child alone stays far below its own limit
  p.totalMemoryBytes = 256u << 20;
  const SandboxResult r = Sandbox(p).run({kChild, "hog-children", "6", "100"});
  EXPECT_FALSE(r.memoryLimit.empty());
  EXPECT_FALSE(r.ok()) << "6 x 100 MiB must not fit in 256 MiB together: " << r.stdoutText() << r.memoryLimit
                       << " peak " << r.peakMemoryBytes;
  EXPECT_TRUE(r.memoryLimitHit || r.exitCode > 0) << r.stdoutText();
  // The same children fit when the cap allows them.
  p.totalMemoryBytes = 2ull << 30;
  const SandboxResult fits = Sandbox(p).run({kChild, "hog-children", "2", "100"});
  EXPECT_TRUE(fits.ok()) << fits.stdoutText();
}

}  // namespace
}  // namespace kwb
