// SPDX-License-Identifier: MIT
// A child's whole process group dies with kwb, even when kwb is killed with SIGKILL
// (core/process/GroupWatchdog.h, docs/reliability.md "Leftovers"): the runner process here is killed
// while its child (a shell that started a silent grandchild, as g++ starts cc1plus) runs; neither may
// outlive it by more than a short bound.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "core/process/ProcessRunner.h"

namespace {

// Running (not gone, not a zombie waiting for a reaper).
bool running(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), {});
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

}  // namespace

TEST(ProcessGroupDeath, ChildAndGrandchildDieWhenTheRunnerIsKilled) {
  int report[2];
  ASSERT_EQ(::pipe(report), 0);
  const pid_t runner = ::fork();
  if (runner == 0) {
    ::close(report[0]);
    kwb::ProcessSpec spec;
    // No output: nothing dies of a broken pipe when the runner is gone; only the watchdog kills them.
    spec.argv = {"sh", "-c", "sleep 60 & echo $!; exec sleep 61 >/dev/null"};
    spec.onStarted = [&](int pid) {
      const std::string line = "leader " + std::to_string(pid) + "\n";
      [[maybe_unused]] auto n = ::write(report[1], line.data(), line.size());
    };
    spec.onStdoutLine = [&](const std::string& l) {
      const std::string line = "grandchild " + l + "\n";
      [[maybe_unused]] auto n = ::write(report[1], line.data(), line.size());
    };
    kwb::ProcessRunner().run(spec);
    ::_exit(0);
  }
  ::close(report[1]);
  int leader = 0, grandchild = 0;
  std::string got;
  char buf[256];
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while ((!leader || !grandchild) && std::chrono::steady_clock::now() < until) {
    const ssize_t n = ::read(report[0], buf, sizeof buf);
    if (n <= 0) break;
    got.append(buf, static_cast<std::size_t>(n));
    std::istringstream lines(got);
    std::string what;
    int pid = 0;
    while (lines >> what >> pid) (what == "leader" ? leader : grandchild) = pid;
  }
  ::close(report[0]);
  ASSERT_GT(leader, 0) << got;
  ASSERT_GT(grandchild, 0) << got;
  ASSERT_TRUE(running(leader));
  ASSERT_TRUE(running(grandchild));

  ::kill(runner, SIGKILL);
  int status = 0;
  ::waitpid(runner, &status, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  while ((running(leader) || running(grandchild)) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const bool survived = running(leader) || running(grandchild);
  if (survived) {
    ::kill(leader, SIGKILL);
    ::kill(grandchild, SIGKILL);
  }
  EXPECT_FALSE(survived) << "the child or its grandchild outlived the killed runner by 300 ms";
}
