// SPDX-License-Identifier: MIT
// ProcessRunner against a real misbehaving child (tests/helpers/kwb_test_child.cpp).

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "core/process/ProcessRunner.h"

namespace kwb {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

const std::string kChild = KWB_TEST_BIN_DIR "/kwb_test_child";

ProcessSpec childSpec(std::vector<std::string> args) {
  ProcessSpec spec;
  spec.argv = {kChild};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.timeout = 20s;  // a safety net; tests that check timeouts set their own
  return spec;
}

class TempDir {
 public:
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "kwb-proc-test-XXXXXX").string();
    if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

int readPid(const fs::path& file) {
  std::ifstream in(file);
  int pid = -1;
  in >> pid;
  return pid;
}

// Gone = no such process, or a zombie waiting for whatever reaps orphans here.
bool processGone(int pid) {
  if (kill(pid, 0) != 0) return errno == ESRCH;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string content((std::istreambuf_iterator<char>(stat)), {});
  auto close = content.rfind(')');
  return close != std::string::npos && close + 2 < content.size() && content[close + 2] == 'Z';
}

bool waitUntilGone(int pid, std::chrono::milliseconds within) {
  auto until = std::chrono::steady_clock::now() + within;
  while (std::chrono::steady_clock::now() < until) {
    if (processGone(pid)) return true;
    std::this_thread::sleep_for(10ms);
  }
  return processGone(pid);
}

TEST(ProcessRunner, CapturesStdoutAndCallsLineCallbacks) {
  ProcessSpec spec = childSpec({"lines", "5"});
  std::vector<std::string> lines;
  spec.onStdoutLine = [&](const std::string& l) { lines.push_back(l); };
  ProcessResult r = ProcessRunner().run(spec);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.stdoutText, "line 0\nline 1\nline 2\nline 3\nline 4\n");
  EXPECT_EQ(lines, (std::vector<std::string>{"line 0", "line 1", "line 2", "line 3", "line 4"}));
  EXPECT_TRUE(r.stderrText.empty());
  EXPECT_FALSE(r.stdoutTruncated);
  EXPECT_GT(r.pid, 0);
}

TEST(ProcessRunner, StderrIsCapturedSeparately) {
  ProcessSpec spec = childSpec({"stderr", "3"});
  std::vector<std::string> lines;
  spec.onStderrLine = [&](const std::string& l) { lines.push_back(l); };
  ProcessResult r = ProcessRunner().run(spec);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.stderrText, "err 0\nerr 1\nerr 2\n");
  EXPECT_EQ(lines.size(), 3u);
  EXPECT_TRUE(r.stdoutText.empty());
}

TEST(ProcessRunner, LastLineWithoutNewlineReachesTheCallback) {
  ProcessSpec spec = childSpec({"partial"});
  std::vector<std::string> lines;
  spec.onStdoutLine = [&](const std::string& l) { lines.push_back(l); };
  ProcessResult r = ProcessRunner().run(spec);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(lines, std::vector<std::string>{"no newline"});
}

TEST(ProcessRunner, ExitCodeIsReportedWithTheCommand) {
  ProcessResult r = ProcessRunner().run(childSpec({"exit", "7"}));
  EXPECT_TRUE(r.started);
  EXPECT_TRUE(r.exited);
  EXPECT_FALSE(r.signaled);
  EXPECT_EQ(r.exitCode, 7);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.describe().find("exit status 7"), std::string::npos) << r.describe();
  EXPECT_NE(r.describe().find(kChild + " exit 7"), std::string::npos) << r.describe();
}

TEST(ProcessRunner, CrashIsReportedAsSignalNotExitCode) {
  ProcessResult r = ProcessRunner().run(childSpec({"crash"}));
  EXPECT_TRUE(r.signaled);
  EXPECT_FALSE(r.exited);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_NE(r.describe().find("killed by signal 11 (SIGSEGV"), std::string::npos) << r.describe();
}

TEST(ProcessRunner, AbortIsSigabrt) {
  ProcessResult r = ProcessRunner().run(childSpec({"abort"}));
  EXPECT_TRUE(r.signaled);
  EXPECT_EQ(r.signal, SIGABRT);
  EXPECT_NE(r.describe().find("SIGABRT"), std::string::npos) << r.describe();
}

TEST(ProcessRunner, FloodIsCappedButDrainedSoTheChildFinishes) {
  ProcessSpec spec = childSpec({"flood", std::to_string(8 * 1024 * 1024)});
  spec.outputCap = 64 * 1024;
  std::size_t callbackBytes = 0;
  spec.onStdoutLine = [&](const std::string& l) { callbackBytes += l.size() + 1; };
  ProcessResult r = ProcessRunner().run(spec);
  ASSERT_TRUE(r.ok()) << r.describe();  // it wrote all 8 MiB: never blocked on a full pipe
  EXPECT_TRUE(r.stdoutTruncated);
  EXPECT_EQ(r.stdoutText.size(), 64u * 1024u);
  EXPECT_LE(callbackBytes, 64u * 1024u + 1);
  EXPECT_NE(r.describe().find("stdout truncated at 65536 bytes"), std::string::npos) << r.describe();
}

TEST(ProcessRunner, StderrFloodIsCappedIndependently) {
  ProcessSpec spec = childSpec({"flood", std::to_string(2 * 1024 * 1024), "err"});
  spec.outputCap = 4096;
  ProcessResult r = ProcessRunner().run(spec);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_TRUE(r.stderrTruncated);
  EXPECT_FALSE(r.stdoutTruncated);
  EXPECT_EQ(r.stderrText.size(), 4096u);
}

TEST(ProcessRunner, KillOnOutputCapStopsAnEndlessFlood) {
  ProcessSpec spec = childSpec({"flood-forever"});
  spec.outputCap = 1024 * 1024;
  spec.killOnOutputCap = true;
  ProcessResult r = ProcessRunner().run(spec);
  EXPECT_TRUE(r.outputCapKilled);
  EXPECT_TRUE(r.signaled);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_FALSE(r.ok());
  EXPECT_LT(r.elapsed, 5s);
  EXPECT_NE(r.describe().find("output passed the capture cap"), std::string::npos) << r.describe();
}

TEST(ProcessRunner, TimeoutIsHonouredWithinAReasonableMargin) {
  ProcessSpec spec = childSpec({"hang"});
  spec.timeout = 300ms;
  ProcessResult r = ProcessRunner().run(spec);
  EXPECT_TRUE(r.timedOut);
  EXPECT_TRUE(r.signaled);
  EXPECT_EQ(r.signal, SIGTERM);
  EXPECT_GE(r.elapsed, 300ms);
  EXPECT_LT(r.elapsed, 300ms + 700ms) << "took " << r.elapsed.count() << " ms";
  EXPECT_NE(r.describe().find("timed out after"), std::string::npos) << r.describe();
}

TEST(ProcessRunner, TimeoutEscalatesToSigkillAfterTheGrace) {
  ProcessSpec spec = childSpec({"hang-ignore-term"});
  spec.timeout = 200ms;
  spec.killGrace = 200ms;
  ProcessResult r = ProcessRunner().run(spec);
  EXPECT_TRUE(r.timedOut);
  EXPECT_TRUE(r.signaled);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_GE(r.elapsed, 400ms);
  EXPECT_LT(r.elapsed, 1400ms) << "took " << r.elapsed.count() << " ms";
}

TEST(ProcessRunner, TimeoutKillsTheWholeGroupLeavingNoOrphans) {
  TempDir tmp;
  fs::path pidFile = tmp.path() / "grandchild.pid";
  ProcessSpec spec = childSpec({"grandchild", pidFile.string(), "hang"});
  spec.timeout = 400ms;
  ProcessResult r = ProcessRunner().run(spec);
  EXPECT_TRUE(r.timedOut) << r.describe();
  int grandchild = readPid(pidFile);
  ASSERT_GT(grandchild, 0) << "the grandchild never wrote its pid: " << r.describe();
  EXPECT_TRUE(waitUntilGone(grandchild, 1s)) << "grandchild " << grandchild << " survived the group kill";
  if (!processGone(grandchild)) kill(grandchild, SIGKILL);
}

TEST(ProcessRunner, LeftoverGroupMembersDieWithTheLeader) {
  TempDir tmp;
  fs::path pidFile = tmp.path() / "grandchild.pid";
  ProcessResult r = ProcessRunner().run(childSpec({"grandchild", pidFile.string(), "exit"}));
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_LT(r.elapsed, 3s) << "the runner waited for the grandchild that holds stdout";
  int grandchild = readPid(pidFile);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(waitUntilGone(grandchild, 1s)) << "grandchild " << grandchild << " outlived the run";
  if (!processGone(grandchild)) kill(grandchild, SIGKILL);
}

TEST(ProcessRunner, ProcessThatLeftTheGroupDoesNotHangTheRunner) {
  TempDir tmp;
  fs::path pidFile = tmp.path() / "daemon.pid";
  ProcessResult r = ProcessRunner().run(childSpec({"daemon", pidFile.string()}));
  int daemon = readPid(pidFile);
  if (daemon > 0) kill(daemon, SIGKILL);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.stdoutText, "daemon started\n");
  EXPECT_LT(r.elapsed, 3s) << "the runner waited for a setsid daemon holding its stdout";
}

TEST(ProcessRunner, CancellationFromAnotherThreadKillsTheGroup) {
  std::atomic<bool> cancel{false};
  ProcessSpec spec = childSpec({"hang"});
  spec.cancel = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(200ms);
    cancel = true;
  });
  ProcessResult r = ProcessRunner().run(spec);
  canceller.join();
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.timedOut);
  EXPECT_FALSE(r.ok());
  EXPECT_GE(r.elapsed, 200ms);
  EXPECT_LT(r.elapsed, 1200ms) << "took " << r.elapsed.count() << " ms";
  EXPECT_NE(r.describe().find("cancelled"), std::string::npos) << r.describe();
}

TEST(ProcessRunner, StdinDataReachesTheChild) {
  std::string data;
  for (int i = 0; i < 50000; ++i) data += "payload " + std::to_string(i) + "\n";  // ~0.6 MB
  ProcessSpec spec = childSpec({"echo-stdin"});
  spec.stdinData = data;
  ProcessResult r = ProcessRunner().run(spec);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.stdoutText, data);
}

TEST(ProcessRunner, ChildThatIgnoresStdinDoesNotBreakTheRunner) {
  ProcessSpec spec = childSpec({"exit-early-stdin"});
  spec.stdinData = std::string(8 * 1024 * 1024, 'a');  // more than a pipe holds: EPIPE, no SIGPIPE
  ProcessResult r = ProcessRunner().run(spec);
  EXPECT_TRUE(r.ok()) << r.describe();
}

TEST(ProcessRunner, WithoutStdinDataTheChildReadsEndOfFile) {
  ProcessResult r = ProcessRunner().run(childSpec({"echo-stdin"}));
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.stdoutText, "");
}

TEST(ProcessRunner, EnvironmentOverridesAndRemovals) {
  setenv("KWB_PROC_TEST_INHERITED", "from-parent", 1);
  {
    ProcessSpec spec = childSpec({"env", "KWB_PROC_TEST_INHERITED"});
    ProcessResult r = ProcessRunner().run(spec);
    EXPECT_EQ(r.stdoutText, "from-parent\n");
  }
  {
    ProcessSpec spec = childSpec({"env", "KWB_PROC_TEST_INHERITED"});
    spec.environment["KWB_PROC_TEST_INHERITED"] = "overridden value";
    ProcessResult r = ProcessRunner().run(spec);
    EXPECT_EQ(r.stdoutText, "overridden value\n");
    EXPECT_NE(r.commandLine.find("KWB_PROC_TEST_INHERITED='overridden value' "), std::string::npos)
        << r.commandLine;
  }
  {
    ProcessSpec spec = childSpec({"env", "KWB_PROC_TEST_INHERITED"});
    spec.unsetEnvironment = {"KWB_PROC_TEST_INHERITED"};
    ProcessResult r = ProcessRunner().run(spec);
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_EQ(r.stdoutText, "<unset>\n");
    EXPECT_NE(r.commandLine.find("env -u KWB_PROC_TEST_INHERITED "), std::string::npos) << r.commandLine;
  }
  {
    ProcessSpec spec = childSpec({"env-count"});
    spec.inheritEnvironment = false;
    spec.environment = {{"ONLY", "1"}, {"TWO", "2"}};
    ProcessResult r = ProcessRunner().run(spec);
    EXPECT_EQ(r.stdoutText, "2\n");
    EXPECT_EQ(r.commandLine.rfind("env -i ONLY=1 TWO=2 ", 0), 0u) << r.commandLine;
  }
  unsetenv("KWB_PROC_TEST_INHERITED");
}

TEST(ProcessRunner, WorkingDirectoryIsApplied) {
  TempDir tmp;
  ProcessSpec spec = childSpec({"cwd"});
  spec.workingDirectory = tmp.path().string();
  ProcessResult r = ProcessRunner().run(spec);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.stdoutText, fs::canonical(tmp.path()).string() + "\n");
  EXPECT_EQ(r.commandLine.rfind("cd " + tmp.path().string() + " && ", 0), 0u) << r.commandLine;
}

TEST(ProcessRunner, RelativeProgramResolvesInTheWorkingDirectory) {
  ProcessSpec spec;
  spec.argv = {"./kwb_test_child", "exit", "0"};
  spec.workingDirectory = KWB_TEST_BIN_DIR;
  ProcessResult r = ProcessRunner().run(spec);
  EXPECT_TRUE(r.ok()) << r.describe();
}

TEST(ProcessRunner, PathLookupUsesTheChildsPath) {
  ProcessSpec spec;
  spec.argv = {"kwb_test_child", "lines", "1"};
  spec.environment["PATH"] = std::string("/nonexistent:") + KWB_TEST_BIN_DIR;
  ProcessResult r = ProcessRunner().run(spec);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.stdoutText, "line 0\n");
}

TEST(ProcessRunner, MissingProgramIsAStartErrorNotAnException) {
  ProcessSpec spec;
  spec.argv = {"kwb-no-such-program", "x"};
  spec.environment["PATH"] = "/usr/bin:/bin";
  ProcessResult r;
  EXPECT_NO_THROW(r = ProcessRunner().run(spec));
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.startError.find("'kwb-no-such-program' was not found in PATH (PATH=/usr/bin:/bin)"),
            std::string::npos)
      << r.startError;
  EXPECT_NE(r.describe().find("could not start"), std::string::npos);
  EXPECT_NE(r.describe().find("command: PATH=/usr/bin:/bin kwb-no-such-program x"), std::string::npos)
      << r.describe();
}

TEST(ProcessRunner, AbsoluteMissingProgramNamesThePath) {
  ProcessSpec spec;
  spec.argv = {"/nonexistent/dir/prog"};
  ProcessResult r = ProcessRunner().run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.startError.find("'/nonexistent/dir/prog': No such file or directory"), std::string::npos)
      << r.startError;
}

TEST(ProcessRunner, NonExecutableFileIsAStartError) {
  TempDir tmp;
  fs::path script = tmp.path() / "not-executable";
  std::ofstream(script) << "#!/bin/sh\necho hi\n";
  chmod(script.c_str(), 0644);
  ProcessSpec spec;
  spec.argv = {script.string()};
  ProcessResult r = ProcessRunner().run(spec);
  EXPECT_FALSE(r.started);
  // root may execute anything with an x bit; with none set even root cannot.
  EXPECT_NE(r.startError.find("is not executable (mode 0644)"), std::string::npos) << r.startError;
}

TEST(ProcessRunner, DirectoryAsProgramIsAStartError) {
  TempDir tmp;
  ProcessSpec spec;
  spec.argv = {tmp.path().string()};
  ProcessResult r = ProcessRunner().run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.startError.find("is a directory"), std::string::npos) << r.startError;
}

TEST(ProcessRunner, BadWorkingDirectoryIsAStartError) {
  ProcessSpec spec = childSpec({"cwd"});
  spec.workingDirectory = "/nonexistent/kwb/dir";
  ProcessResult r = ProcessRunner().run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.startError.find("working directory '/nonexistent/kwb/dir': No such file or directory"),
            std::string::npos)
      << r.startError;
  EXPECT_NE(r.describe().find("cd /nonexistent/kwb/dir && "), std::string::npos) << r.describe();
}

TEST(ProcessRunner, EmptyArgvIsAStartError) {
  ProcessResult r = ProcessRunner().run(ProcessSpec{});
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.startError.find("argv is empty"), std::string::npos) << r.startError;
}

TEST(ProcessRunner, CommandLineCanBePastedIntoAShell) {
  TempDir tmp;
  ProcessSpec spec = childSpec({"lines", "2", "it's a \"quoted\" $HOME `arg`"});
  spec.workingDirectory = tmp.path().string();
  spec.environment["KWB_X"] = "a b";
  ProcessResult direct = ProcessRunner().run(spec);
  ASSERT_TRUE(direct.ok()) << direct.describe();
  EXPECT_NE(direct.commandLine.find("KWB_X='a b' "), std::string::npos) << direct.commandLine;
  EXPECT_NE(direct.commandLine.find("'it'\\''s a \"quoted\" $HOME `arg`'"), std::string::npos)
      << direct.commandLine;

  ProcessSpec viaShell;
  viaShell.argv = {"/bin/sh", "-c", direct.commandLine};
  ProcessResult pasted = ProcessRunner().run(viaShell);
  ASSERT_TRUE(pasted.ok()) << pasted.describe();
  EXPECT_EQ(pasted.stdoutText, direct.stdoutText);
}

TEST(ProcessRunner, ShellQuoting) {
  EXPECT_EQ(shellQuote("plain-arg_1.txt"), "plain-arg_1.txt");
  EXPECT_EQ(shellQuote("/usr/bin/g++"), "/usr/bin/g++");
  EXPECT_EQ(shellQuote(""), "''");
  EXPECT_EQ(shellQuote("a b"), "'a b'");
  EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(shellQuote("$x;rm"), "'$x;rm'");
  EXPECT_EQ(shellQuote("*"), "'*'");
}

TEST(ProcessRunner, SignalNames) {
  EXPECT_EQ(signalName(SIGSEGV), "SIGSEGV");
  EXPECT_EQ(signalName(SIGKILL), "SIGKILL");
  EXPECT_EQ(signalName(SIGXCPU), "SIGXCPU");
  EXPECT_EQ(signalDescription(SIGSEGV), "SIGSEGV: Segmentation fault");
}

TEST(ProcessRunner, InheritedFileIsReadableAtItsDescriptor) {
  TempDir tmp;
  fs::path data = tmp.path() / "data.txt";
  std::ofstream(data) << "from fd 3";
  ProcessSpec spec = childSpec({"cat-fd", "3"});
  spec.inheritedFiles = {{3, data.string()}};
  ProcessResult r = ProcessRunner().run(spec);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.stdoutText, "from fd 3");
  EXPECT_NE(r.commandLine.find(" 3<" + data.string()), std::string::npos) << r.commandLine;
}

TEST(ProcessRunner, ChildSeesOnlyItsOwnDescriptors) {
  int leaky[2];
  ASSERT_EQ(pipe(leaky), 0);  // deliberately without O_CLOEXEC
  ProcessResult r = ProcessRunner().run(childSpec({"list-fds"}));
  close(leaky[0]);
  close(leaky[1]);
  ASSERT_TRUE(r.ok()) << r.describe();
  std::istringstream in(r.stdoutText);
  std::set<int> fds;
  for (int fd; in >> fd;) fds.insert(fd);
  EXPECT_EQ(fds, (std::set<int>{0, 1, 2})) << r.stdoutText;
}

TEST(ProcessRunner, OnStartedGetsTheChildPid) {
  int seen = -1;
  ProcessSpec spec = childSpec({"exit", "0"});
  spec.onStarted = [&](int pid) { seen = pid; };
  ProcessResult r = ProcessRunner().run(spec);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(seen, r.pid);
}

TEST(ProcessRunner, ConcurrentRunsDoNotMixOutput) {
  std::vector<std::thread> threads;
  std::vector<ProcessResult> results(4);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      results[i] = ProcessRunner().run(childSpec({"lines", "200", "t" + std::to_string(i)}));
    });
  for (auto& t : threads) t.join();
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(results[i].ok()) << results[i].describe();
    EXPECT_EQ(results[i].stdoutText.rfind("t" + std::to_string(i) + " 0\n", 0), 0u);
    EXPECT_EQ(std::count(results[i].stdoutText.begin(), results[i].stdoutText.end(), '\n'), 200);
  }
}

// Compilers and candidates inherit the environment (when they do at all) without the LLM's key:
// issue 16, item 5. The child prints everything it got.
TEST(ProcessRunner, InheritedEnvironmentNeverCarriesTheLlmKey) {
  setenv("OPENAI_API_KEY", "sk-test-openai-123456", 1);
  setenv("KWB_LLM_BASE_URL", "https://user:sk-in-url@example.invalid/v1", 1);
  setenv("KWB_LLM_API_KEY_ENV", "KWB_TEST_CUSTOM_KEYVAR", 1);
  setenv("KWB_TEST_CUSTOM_KEYVAR", "sk-custom-999", 1);
  setenv("KWB_PROC_TEST_PLAIN", "kept", 1);
  ProcessResult r = ProcessRunner().run(childSpec({"env-dump"}));
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.stdoutText.find("sk-"), std::string::npos) << r.stdoutText;
  EXPECT_EQ(r.stdoutText.find("KWB_LLM_"), std::string::npos) << r.stdoutText;
  EXPECT_EQ(r.stdoutText.find("OPENAI_API_KEY"), std::string::npos);
  EXPECT_NE(r.stdoutText.find("KWB_PROC_TEST_PLAIN=kept"), std::string::npos) << "other variables stay";
  // An explicit entry is the caller's decision and still passes.
  ProcessSpec spec = childSpec({"env", "OPENAI_API_KEY"});
  spec.environment = {{"OPENAI_API_KEY", "given"}};
  EXPECT_EQ(ProcessRunner().run(spec).stdoutText, "given\n");
  for (const char* n : {"OPENAI_API_KEY", "KWB_LLM_BASE_URL", "KWB_LLM_API_KEY_ENV", "KWB_TEST_CUSTOM_KEYVAR",
                        "KWB_PROC_TEST_PLAIN"})
    unsetenv(n);
  EXPECT_TRUE(isSecretEnvironmentName("ANTHROPIC_API_KEY", ""));
  EXPECT_TRUE(isSecretEnvironmentName("hf_api_token", ""));
  EXPECT_TRUE(isSecretEnvironmentName("MYKEY", "MYKEY"));
  EXPECT_FALSE(isSecretEnvironmentName("PATH", ""));
  EXPECT_FALSE(isSecretEnvironmentName("KEYBOARD", ""));
}

}  // namespace
}  // namespace kwb
