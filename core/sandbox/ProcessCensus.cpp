// SPDX-License-Identifier: MIT
#include "core/sandbox/ProcessCensus.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

namespace kwb {

namespace {

// Parses /proc/PID/stat. The command name may contain spaces and parentheses, so fields are counted
// from the last ')'.
bool readStat(int dirFd, const char* name, ProcessInfo& info) {
  int fd = openat(dirFd, (std::string(name) + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[1024];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  // The /proc/PID folder belongs to the process's effective uid (its files may show root instead,
  // e.g. for zombies and non-dumpable processes).
  struct stat st {};
  bool haveOwner = fstatat(dirFd, name, &st, 0) == 0;
  if (n <= 0 || !haveOwner) return false;
  buf[n] = '\0';
  std::string text(buf, static_cast<std::size_t>(n));
  auto paren = text.rfind(')');
  if (paren == std::string::npos || paren + 2 >= text.size()) return false;
  // Fields after the name: 3 state, 4 ppid, ... 20 num_threads.
  const char* p = text.c_str() + paren + 2;
  info.state = *p;
  int field = 3;
  while (*p && field < 20) {
    if (*p == ' ') {
      ++field;
      if (field == 4) info.ppid = atoi(p + 1);
      if (field == 20) info.threads = atoi(p + 1);
    }
    ++p;
  }
  info.uid = st.st_uid;
  return field == 20;
}

// A zombie still counts against RLIMIT_NPROC until it is reaped (its reaper may be slow: orphans go to
// pid 1, which in a container is not always quick about it), so it counts here as one task.
int taskWeight(const ProcessInfo& p) {
  if (p.state == 'X') return 0;
  if (p.state == 'Z') return 1;
  return std::max(1, p.threads);
}

}  // namespace

std::vector<ProcessInfo> listProcesses() {
  std::vector<ProcessInfo> out;
  DIR* proc = opendir("/proc");
  if (!proc) return out;
  int procFd = dirfd(proc);
  while (dirent* e = readdir(proc)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    ProcessInfo info;
    info.pid = atoi(e->d_name);
    if (readStat(procFd, e->d_name, info)) out.push_back(info);
  }
  closedir(proc);
  return out;
}

int countTasksUnder(const std::vector<ProcessInfo>& snapshot, int rootPid, bool includeRoot) {
  std::multimap<int, const ProcessInfo*> children;
  const ProcessInfo* root = nullptr;
  for (const auto& p : snapshot) {
    children.emplace(p.ppid, &p);
    if (p.pid == rootPid) root = &p;
  }
  if (!root) return 0;
  int count = 0;
  std::vector<const ProcessInfo*> todo{root};
  while (!todo.empty()) {
    const ProcessInfo* p = todo.back();
    todo.pop_back();
    if (p != root || includeRoot) count += taskWeight(*p);
    auto range = children.equal_range(p->pid);
    for (auto it = range.first; it != range.second; ++it) todo.push_back(it->second);
  }
  return count;
}

int countTasksUnder(int rootPid, bool includeRoot) {
  return countTasksUnder(listProcesses(), rootPid, includeRoot);
}

int countTasksOfUser(uid_t uid) {
  int count = 0;
  for (const auto& p : listProcesses())
    if (p.uid == uid) count += taskWeight(p);
  return count;
}

void TaskCountSampler::start(int rootPid, bool includeRoot, std::chrono::milliseconds interval) {
  stop();
  {
    std::lock_guard lock(mutex_);
    stop_ = false;
  }
  max_ = 0;
  thread_ = std::thread([this, rootPid, includeRoot, interval] {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      lock.unlock();
      int n = countTasksUnder(rootPid, includeRoot);
      if (n > max_.load()) max_ = n;
      lock.lock();
      wake_.wait_for(lock, interval, [this] { return stop_; });
    }
  });
}

int TaskCountSampler::stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  return max_.load();
}

}  // namespace kwb
