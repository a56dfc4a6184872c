// SPDX-License-Identifier: MIT
// The sandbox against a corpus of hostile candidates (tests/fixtures/hostile/*.cpp), compiled with g++
// into a temp folder outside any sandbox. Each must be contained, with the right diagnostic, and leave
// no harm behind: canaries survive, nothing is written outside scratch, no process outlives the run.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "core/process/ProcessRunner.h"
#include "core/sandbox/ProcessCensus.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/SandboxCommand.h"
#include "core/sandbox/SandboxHost.h"

namespace kwb {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

const char* const kHostile[] = {"delete_outside", "fork_bomb",    "alloc_50gb",
                                "spin_forever",   "open_socket",  "read_secrets",
                                "write_outside",  "flood_stdout", "well_behaved"};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::string diagnosticsText(const SandboxResult& r) {
  std::string out = "isolation=" + r.isolation + " outcome=" + r.process.describe() + "\n";
  for (const auto& d : r.diagnostics) out += "  " + d.format() + "\n";
  out += "stderr: " + r.stderrText().substr(0, 2000);
  return out;
}

const Diagnostic* findDiagnostic(const SandboxResult& r, std::string_view category,
                                 const std::string& words) {
  for (const auto& d : r.diagnostics)
    if (d.category == category && d.message.find(words) != std::string::npos) return &d;
  return nullptr;
}

// Processes whose executable is `path` (they may live in other pid namespaces; root sees them all).
int processesRunning(const fs::path& path) {
  int n = 0;
  for (const auto& p : listProcesses()) {
    if (p.state == 'Z') continue;
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/" + std::to_string(p.pid) + "/exe", ec);
    if (!ec && exe == path) ++n;
  }
  return n;
}

bool noneRunningWithin(const fs::path& path, std::chrono::milliseconds within) {
  auto until = std::chrono::steady_clock::now() + within;
  while (processesRunning(path) > 0) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

class SandboxTest : public ::testing::Test {
 protected:
  // One world-searchable temp root (the sandbox user must be able to reach its folders) holding the
  // compiled corpus in bin/ (bound read-only) and a private secret/ folder that is never bound.
  static void SetUpTestSuite() {
    std::string templ = (fs::temp_directory_path() / "kwb-sandbox-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    root_ = templ;
    chmod(root_.c_str(), 0755);
    fs::create_directories(root_ / "bin");
    chmod((root_ / "bin").c_str(), 0755);
    fs::create_directories(root_ / "secret");
    chmod((root_ / "secret").c_str(), 0700);
    std::ofstream(root_ / "secret" / "id_rsa") << "KWB-CANARY-SECRET-5f2c9\n";
    std::ofstream(root_ / "bin" / "precious.txt") << "keep me\n";

    std::map<std::string, ProcessResult> results;
    std::vector<std::thread> compilers;
    std::mutex m;
    for (const char* name : kHostile) {
      compilers.emplace_back([&, name] {
        ProcessSpec spec;
        spec.argv = {"g++",
                     "-std=c++17",
                     "-O1",
                     "-o",
                     (root_ / "bin" / name).string(),
                     std::string(KWB_FIXTURES_DIR) + "/hostile/" + name + ".cpp"};
        spec.timeout = 120s;
        ProcessResult r = ProcessRunner().run(spec);
        std::lock_guard lock(m);
        results[name] = r;
      });
    }
    for (auto& t : compilers) t.join();
    for (const auto& [name, r] : results)
      ASSERT_TRUE(r.ok()) << "compiling " << name << ": " << r.describe() << "\n" << r.stderrText;
  }

  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  static fs::path bin(const std::string& name) { return root_ / "bin" / name; }

  SandboxPolicy policy(SandboxIsolation isolation = SandboxIsolation::Bubblewrap) {
    static int counter = 0;
    SandboxPolicy p;
    p.scratchDir = root_ / ("scratch-" + std::to_string(++counter));
    p.readOnlyPaths = {root_ / "bin"};
    p.wallTimeout = 10s;
    p.cpuSeconds = 5;
    p.addressSpaceBytes = 1ull << 30;
    p.maxProcesses = 16;
    p.maxFileSizeBytes = 16ull << 20;
    p.outputCap = 256 * 1024;
    p.isolation = isolation;
    return p;
  }

  void requireBubblewrap() {
    if (!Sandbox::bubblewrapAvailable())
      GTEST_SKIP() << "bubblewrap cannot be used here: " << sandboxHost().bwrapProblem;
  }

  static fs::path root_;
};

fs::path SandboxTest::root_;

TEST_F(SandboxTest, DescribesItsIsolation) {
  std::string text = Sandbox::isolationDescription();
  EXPECT_FALSE(text.empty());
  if (Sandbox::bubblewrapAvailable())
    EXPECT_NE(text.find("bubblewrap"), std::string::npos) << text;
  else
    EXPECT_NE(text.find("rlimits only"), std::string::npos) << text;
}

TEST_F(SandboxTest, WellBehavedProgramRunsCleanlyInScratch) {
  requireBubblewrap();
  SandboxPolicy p = policy();
  SandboxRun run;
  run.argv = {bin("well_behaved").string()};
  run.stdinData = "hello";
  SandboxResult r = Sandbox(p).run(run);
  ASSERT_TRUE(r.ok()) << diagnosticsText(r);
  EXPECT_EQ(r.isolation, "bubblewrap");
  EXPECT_TRUE(r.diagnostics.empty()) << diagnosticsText(r);
  EXPECT_EQ(r.stdoutText(), "ok in " + fs::canonical(p.scratchDir).string() + ", stdin=hello\n");
  EXPECT_EQ(slurp(p.scratchDir / "result.txt"), "42\n");
  EXPECT_NE(r.commandLine().find("bwrap"), std::string::npos);
  EXPECT_NE(r.commandLine().find("prlimit"), std::string::npos);
}

TEST_F(SandboxTest, EnvironmentIsMinimal) {
  requireBubblewrap();
  setenv("KWB_SANDBOX_TEST_LEAK", "parent-secret", 1);
  SandboxPolicy p = policy();
  p.environment["KWB_SIM_REPORT"] = "report.json";
  SandboxResult r = Sandbox(p).run({"env"});
  unsetenv("KWB_SANDBOX_TEST_LEAK");
  ASSERT_TRUE(r.ok()) << diagnosticsText(r);
  EXPECT_EQ(r.stdoutText().find("KWB_SANDBOX_TEST_LEAK"), std::string::npos) << r.stdoutText();
  EXPECT_NE(r.stdoutText().find("HOME=" + fs::canonical(p.scratchDir).string() + "\n"), std::string::npos);
  EXPECT_NE(r.stdoutText().find("KWB_SIM_REPORT=report.json\n"), std::string::npos) << r.stdoutText();
}

TEST_F(SandboxTest, DeletingFilesOutsideScratchFails) {
  requireBubblewrap();
  const fs::path canary = root_ / "secret" / "canary-delete";
  std::ofstream(canary) << "alive\n";
  SandboxResult r = Sandbox(policy()).run(
      {bin("delete_outside").string(), canary.string(), (root_ / "bin" / "precious.txt").string()});
  EXPECT_TRUE(fs::exists(canary)) << "the canary outside the sandbox was deleted";
  EXPECT_TRUE(fs::exists(root_ / "bin" / "precious.txt")) << "a file in the read-only folder was deleted";
  EXPECT_EQ(r.exitCode, 0) << "deletions reported as successful: " << r.stdoutText();
  EXPECT_NE(findDiagnostic(r, category::SandboxViolation, "read-only file system"), nullptr)
      << diagnosticsText(r);
}

TEST_F(SandboxTest, ForkBombIsContainedAndLeavesNoProcesses) {
  requireBubblewrap();
  SandboxPolicy p = policy();
  p.wallTimeout = 1500ms;
  auto start = std::chrono::steady_clock::now();
  SandboxResult r = Sandbox(p).run({bin("fork_bomb").string()});
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, 5s);
  EXPECT_TRUE(r.timedOut) << diagnosticsText(r);
  EXPECT_NE(findDiagnostic(r, category::Timeout, "wall-clock limit of 1500 ms"), nullptr)
      << diagnosticsText(r);
  EXPECT_NE(findDiagnostic(r, category::SandboxViolation, "process limit of 16 tasks was reached"), nullptr)
      << diagnosticsText(r) << "\npeak tasks " << r.peakTasks;
  EXPECT_LE(r.peakTasks, p.maxProcesses) << "more tasks than the limit ran";
  EXPECT_TRUE(noneRunningWithin(bin("fork_bomb"), 2s))
      << processesRunning(bin("fork_bomb")) << " left running";
}

TEST_F(SandboxTest, HugeAllocationHitsTheMemoryLimit) {
  requireBubblewrap();
  SandboxResult r = Sandbox(policy()).run({bin("alloc_50gb").string()});
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.signaled) << diagnosticsText(r);
  EXPECT_EQ(r.signal, SIGABRT) << diagnosticsText(r);
  EXPECT_NE(findDiagnostic(r, category::SandboxViolation, "address-space limit of 1 GiB"), nullptr)
      << diagnosticsText(r);
}

TEST_F(SandboxTest, SpinningIsStoppedByTheCpuLimit) {
  requireBubblewrap();
  SandboxPolicy p = policy();
  p.cpuSeconds = 1;
  p.wallTimeout = 30s;  // one CPU second can take several wall seconds on a loaded machine
  SandboxResult r = Sandbox(p).run({bin("spin_forever").string()});
  EXPECT_FALSE(r.timedOut) << "the wall timeout fired before the CPU limit: " << diagnosticsText(r);
  EXPECT_TRUE(r.signaled);
  EXPECT_EQ(r.signal, SIGXCPU) << diagnosticsText(r);
  EXPECT_NE(findDiagnostic(r, category::Timeout, "CPU-time limit of 1 s"), nullptr) << diagnosticsText(r);
}

TEST_F(SandboxTest, SpinningIsStoppedByTheWallTimeout) {
  requireBubblewrap();
  SandboxPolicy p = policy();
  p.cpuSeconds = 60;
  p.wallTimeout = 500ms;
  SandboxResult r = Sandbox(p).run({bin("spin_forever").string()});
  EXPECT_TRUE(r.timedOut);
  EXPECT_NE(findDiagnostic(r, category::Timeout, "wall-clock limit of 500 ms"), nullptr)
      << diagnosticsText(r);
  EXPECT_GE(r.process.elapsed, 500ms);
  EXPECT_LT(r.process.elapsed, 2s);
  EXPECT_TRUE(noneRunningWithin(bin("spin_forever"), 2s));
}

TEST_F(SandboxTest, NetworkIsUnreachableAndTheAttemptIsReported) {
  requireBubblewrap();
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(listener, 4), 0);
  socklen_t len = sizeof addr;
  getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);

  SandboxResult r = Sandbox(policy()).run({bin("open_socket").string(), std::to_string(port)});
  int accepted = accept(listener, nullptr, nullptr);
  EXPECT_LT(accepted, 0) << "the hostile program reached a listener on the host";
  if (accepted >= 0) close(accepted);
  close(listener);
  EXPECT_EQ(r.stdoutText().find("connected"), std::string::npos);
  EXPECT_FALSE(r.ok());
  if (sandboxHost().seccompFilterPath) {
    EXPECT_TRUE(r.signaled);
    EXPECT_EQ(r.signal, SIGSYS);
    EXPECT_NE(findDiagnostic(r, category::SandboxViolation, "network socket"), nullptr) << diagnosticsText(r);
  }
}

TEST_F(SandboxTest, PrivateFilesAreInvisible) {
  requireBubblewrap();
  const fs::path secret = root_ / "secret" / "id_rsa";
  SandboxResult r = Sandbox(policy()).run({bin("read_secrets").string(), secret.string()});
  EXPECT_EQ(r.stdoutText().find("KWB-CANARY-SECRET"), std::string::npos)
      << "the secret leaked: " << r.stdoutText();
  EXPECT_EQ(r.stdoutText().find("listed"), std::string::npos) << r.stdoutText();
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.exitCode, 0) << "files it could read: " << r.stdoutText();
  EXPECT_NE(r.stderrText().find("cannot read " + secret.string() + ": No such file or directory"),
            std::string::npos)
      << r.stderrText();
  EXPECT_FALSE(r.hasCategory(category::RuntimeCrash)) << diagnosticsText(r);
}

TEST_F(SandboxTest, WritesOutsideScratchFail) {
  requireBubblewrap();
  const std::vector<fs::path> targets = {root_ / "secret" / "planted", root_ / "bin" / "planted",
                                         root_ / "planted", "/usr/kwb-sandbox-test-planted"};
  std::vector<std::string> argv = {bin("write_outside").string()};
  for (const auto& t : targets) argv.push_back(t.string());
  SandboxPolicy p = policy();
  SandboxResult r = Sandbox(p).run(argv);
  for (const auto& t : targets) {
    EXPECT_FALSE(fs::exists(t)) << t << " was written from inside the sandbox";
    std::error_code ec;
    fs::remove(t, ec);
  }
  // Inside, the folder not bound is absent, the bound one and /usr are read-only. Only the test root
  // itself exists there, as a parent bwrap created inside the private /tmp: a write there lands in
  // that tmpfs (checked absent on the host above) and vanishes with the sandbox.
  EXPECT_NE(r.stderrText().find("open " + targets[0].string() + ": No such file or directory"),
            std::string::npos)
      << r.stderrText();
  EXPECT_NE(r.stderrText().find("open " + targets[1].string() + ": Read-only file system"), std::string::npos)
      << r.stderrText();
  EXPECT_NE(r.stderrText().find("open " + targets[3].string() + ": Read-only file system"), std::string::npos)
      << r.stderrText();
  EXPECT_LE(r.exitCode, 1) << r.stdoutText();
  EXPECT_NE(findDiagnostic(r, category::SandboxViolation, "read-only file system"), nullptr)
      << diagnosticsText(r);
}

TEST_F(SandboxTest, OutputFloodIsCappedAndKilled) {
  requireBubblewrap();
  SandboxPolicy p = policy();
  SandboxResult r = Sandbox(p).run({bin("flood_stdout").string()});
  EXPECT_TRUE(r.process.outputCapKilled) << diagnosticsText(r);
  EXPECT_EQ(r.stdoutText().size(), p.outputCap);
  EXPECT_LT(r.process.elapsed, 3s);
  EXPECT_NE(findDiagnostic(r, category::SandboxViolation, "output cap of 256 KiB"), nullptr)
      << diagnosticsText(r);
  EXPECT_TRUE(noneRunningWithin(bin("flood_stdout"), 2s));
}

TEST_F(SandboxTest, CancellationStopsTheRunWithoutBlame) {
  requireBubblewrap();
  std::atomic<bool> cancel{false};
  SandboxRun run;
  run.argv = {bin("spin_forever").string()};
  run.cancel = &cancel;
  std::thread t([&] {
    std::this_thread::sleep_for(200ms);
    cancel = true;
  });
  SandboxResult r = Sandbox(policy()).run(run);
  t.join();
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.diagnostics.empty()) << diagnosticsText(r);
  EXPECT_TRUE(noneRunningWithin(bin("spin_forever"), 2s));
}

TEST_F(SandboxTest, CrashIsARuntimeCrashWithTheSignal) {
  requireBubblewrap();
  // A shell killing itself: bwrap reports it as 128+11, the sandbox decodes it back.
  SandboxResult r = Sandbox(policy()).run({"/bin/sh", "-c", "kill -SEGV $$"});
  EXPECT_TRUE(r.signaled) << diagnosticsText(r);
  EXPECT_EQ(r.signal, SIGSEGV);
  const Diagnostic* d = findDiagnostic(r, category::RuntimeCrash, "SIGSEGV");
  ASSERT_NE(d, nullptr) << diagnosticsText(r);
  EXPECT_NE(d->message.find("re-run: "), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("bwrap"), std::string::npos) << d->message;
}

TEST_F(SandboxTest, FileSizeLimitIsAViolation) {
  requireBubblewrap();
  SandboxPolicy p = policy();
  p.maxFileSizeBytes = 1 << 20;
  SandboxResult r = Sandbox(p).run({"/bin/sh", "-c", "head -c 4000000 /dev/zero > big.bin"});
  EXPECT_NE(findDiagnostic(r, category::SandboxViolation, "file-size limit of 1 MiB"), nullptr)
      << diagnosticsText(r);
  EXPECT_LE(fs::file_size(p.scratchDir / "big.bin"), 1u << 20);
}

TEST_F(SandboxTest, ProgramOutsideTheBoundFoldersIsASetupError) {
  requireBubblewrap();
  SandboxPolicy p = policy();
  p.readOnlyPaths.clear();
  SandboxResult r = Sandbox(p).run({bin("well_behaved").string()});
  EXPECT_FALSE(r.process.started);
  EXPECT_EQ(r.isolation, "none");
  EXPECT_NE(findDiagnostic(r, category::SandboxSetup, "outside every folder bound into the sandbox"), nullptr)
      << diagnosticsText(r);
}

TEST_F(SandboxTest, UnreachableReadOnlyFolderIsASetupErrorWhenRoot) {
  if (geteuid() != 0) GTEST_SKIP() << "only root hands runs to another user";
  SandboxPolicy p = policy();
  p.readOnlyPaths.push_back(root_ / "secret");  // mode 0700: the sandbox user cannot read it
  SandboxResult r = Sandbox(p).run({"true"});
  EXPECT_FALSE(r.process.started);
  EXPECT_NE(findDiagnostic(r, category::SandboxSetup, "chmod o+rx"), nullptr) << diagnosticsText(r);
}

TEST_F(SandboxTest, RequiringBubblewrapNeverFallsBackSilently) {
  SandboxPolicy p = policy(SandboxIsolation::Bubblewrap);
  SandboxResult r = Sandbox(p).run({"true"});
  if (Sandbox::bubblewrapAvailable())
    EXPECT_TRUE(r.ok()) << diagnosticsText(r);
  else
    EXPECT_TRUE(r.hasCategory(category::SandboxSetup)) << diagnosticsText(r);
}

// --- Without bubblewrap: limits still hold, and the result says loudly that nothing is isolated. ---

TEST_F(SandboxTest, RlimitsOnlyWarnsLoudly) {
  SandboxResult r = Sandbox(policy(SandboxIsolation::RlimitsOnly)).run({bin("well_behaved").string()});
  EXPECT_EQ(r.isolation, "rlimits-only");
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.exitCode, 0) << diagnosticsText(r);
  const Diagnostic* d = findDiagnostic(r, category::SandboxSetup, "NOT ISOLATED");
  ASSERT_NE(d, nullptr) << diagnosticsText(r);
  EXPECT_EQ(d->severity, Severity::Warning);
  EXPECT_NE(r.commandLine().find("prlimit"), std::string::npos);
  EXPECT_EQ(r.commandLine().find("bwrap"), std::string::npos);
}

TEST_F(SandboxTest, RlimitsOnlyStillLimitsMemory) {
  // The same prlimit applies the CPU limit too (covered with bubblewrap above).
  SandboxResult mem = Sandbox(policy(SandboxIsolation::RlimitsOnly)).run({bin("alloc_50gb").string()});
  EXPECT_EQ(mem.isolation, "rlimits-only");
  EXPECT_NE(findDiagnostic(mem, category::SandboxViolation, "address-space limit of 1 GiB"), nullptr)
      << diagnosticsText(mem);
}

TEST_F(SandboxTest, RlimitsOnlyContainsAForkBomb) {
  if (geteuid() == 0 && sandboxHost().setprivPath.empty())
    GTEST_SKIP() << "root without setpriv: no process limit";
  SandboxPolicy p = policy(SandboxIsolation::RlimitsOnly);
  p.wallTimeout = 1s;
  SandboxResult r = Sandbox(p).run({bin("fork_bomb").string()});
  EXPECT_TRUE(r.timedOut) << diagnosticsText(r);
  EXPECT_NE(findDiagnostic(r, category::SandboxViolation, "process limit"), nullptr)
      << diagnosticsText(r) << "\npeak " << r.peakTasks;
  EXPECT_TRUE(noneRunningWithin(bin("fork_bomb"), 2s))
      << processesRunning(bin("fork_bomb")) << " left running";
}

TEST(ProcessCensus, CountsAProcessTree) {
  std::atomic<bool> stop{false};
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", "sleep 5 & sleep 5 & wait"};
  spec.cancel = &stop;
  int counted = 0;
  spec.onStarted = [&](int pid) {
    for (int i = 0; i < 100 && counted < 3; ++i) {
      std::this_thread::sleep_for(10ms);
      counted = countTasksUnder(pid, true);
    }
    stop = true;
  };
  ProcessRunner().run(spec);
  EXPECT_EQ(counted, 3);
}

}  // namespace
}  // namespace kwb
