// SPDX-License-Identifier: MIT
#pragma once
// Counting processes from /proc: how many tasks (processes and their threads) live under a process,
// or belong to a user. The sandbox samples its process tree while a program runs so that hitting the
// process limit (a fork bomb) is reported as such rather than as a plain timeout.

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace kwb {

struct ProcessInfo {
  int pid = 0;
  int ppid = 0;
  int threads = 1;
  uid_t uid = 0;
  char state = '?';
};

// Every process visible in /proc (a snapshot; processes come and go while it is taken).
std::vector<ProcessInfo> listProcesses();

// Tasks (threads included) of the processes descending from `rootPid`; the root itself counts when
// `includeRoot`. A zombie counts as one task: it holds its slot under RLIMIT_NPROC until reaped.
int countTasksUnder(int rootPid, bool includeRoot);
int countTasksUnder(const std::vector<ProcessInfo>& snapshot, int rootPid, bool includeRoot);

// Tasks owned by `uid` across the system (what RLIMIT_NPROC compares against without a user namespace).
int countTasksOfUser(uid_t uid);

// Samples countTasksUnder(pid) on a background thread until stopped; keeps the maximum.
class TaskCountSampler {
 public:
  TaskCountSampler() = default;
  TaskCountSampler(const TaskCountSampler&) = delete;
  TaskCountSampler& operator=(const TaskCountSampler&) = delete;
  ~TaskCountSampler() { stop(); }

  void start(int rootPid, bool includeRoot, std::chrono::milliseconds interval);
  // Stops sampling (idempotent) and returns the largest count seen.
  int stop();
  int maximum() const { return max_.load(); }

 private:
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::atomic<int> max_{0};
};

}  // namespace kwb
