// SPDX-License-Identifier: MIT
#include "core/sandbox/MemoryCgroup.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace kwb {

namespace fs = std::filesystem;

namespace {

std::atomic<unsigned> g_serial{0};

bool writeValue(const fs::path& file, const std::string& value) {
  std::ofstream out(file);
  if (!out) return false;
  out << value;
  out.flush();
  return static_cast<bool>(out);
}

std::string readValue(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::uint64_t readNumber(const fs::path& file) {
  try {
    const std::string s = readValue(file);
    return s.empty() || s[0] == 'm' ? 0 : std::stoull(s);
  } catch (...) {
    return 0;
  }
}

// Our own cgroup path in the v2 hierarchy ("0::/path") or in the v1 hierarchy of `controller`
// ("N:memory:/path"); empty when absent.
std::string ownCgroup(bool v2, const std::string& controller) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string list = line.substr(a + 1, b - a - 1);
    if (v2 && line.substr(0, a) == "0" && list.empty()) return line.substr(b + 1);
    if (!v2) {
      std::stringstream names(list);
      std::string n;
      while (std::getline(names, n, ','))
        if (n == controller) return line.substr(b + 1);
    }
  }
  return {};
}

std::string uniqueName() {
  return "kwb-sandbox-" + std::to_string(::getpid()) + "-" + std::to_string(g_serial++);
}

}  // namespace

std::unique_ptr<MemoryCgroup> MemoryCgroup::create(std::uint64_t bytes, std::string& problem) {
  std::error_code ec;
  // cgroup v2: the memory controller must be enabled for our own cgroup's children.
  if (fs::exists("/sys/fs/cgroup/cgroup.controllers", ec)) {
    const std::string own = ownCgroup(true, "");
    const fs::path parent = fs::path("/sys/fs/cgroup") / fs::path(own).relative_path();
    const std::string enabled = readValue(parent / "cgroup.subtree_control");
    if (enabled.find("memory") == std::string::npos)
      writeValue(parent / "cgroup.subtree_control", "+memory +pids");
    const fs::path dir = parent / uniqueName();
    if (fs::create_directory(dir, ec) && fs::exists(dir / "memory.max", ec)) {
      if (writeValue(dir / "memory.max", std::to_string(bytes))) {
        writeValue(dir / "memory.swap.max", "0");
        return std::unique_ptr<MemoryCgroup>(new MemoryCgroup(dir, true, bytes));
      }
    }
    fs::remove(dir, ec);
    problem = "cgroup v2: no memory controller can be delegated below " + parent.string() +
              " (cgroup.subtree_control lacks memory and cannot be changed by this user)";
  }
  // cgroup v1 memory hierarchy.
  const fs::path mount = "/sys/fs/cgroup/memory";
  if (fs::exists(mount / "memory.limit_in_bytes", ec) || fs::exists(mount / "cgroup.procs", ec)) {
    const std::string own = ownCgroup(false, "memory");
    for (const fs::path& parent : {mount / fs::path(own).relative_path(), mount}) {
      const fs::path dir = parent / uniqueName();
      if (!fs::create_directory(dir, ec)) continue;
      if (writeValue(dir / "memory.limit_in_bytes", std::to_string(bytes))) {
        // Without swap accounting the limit still holds for resident memory; with it, swap is capped too.
        if (fs::exists(dir / "memory.memsw.limit_in_bytes", ec))
          writeValue(dir / "memory.memsw.limit_in_bytes", std::to_string(bytes));
        return std::unique_ptr<MemoryCgroup>(new MemoryCgroup(dir, false, bytes));
      }
      fs::remove(dir, ec);
    }
    problem += std::string(problem.empty() ? "" : "; ") +
               "cgroup v1: cannot create a limited memory cgroup below " + mount.string() +
               " (not root, or the hierarchy is read-only)";
  }
  if (problem.empty()) problem = "no cgroup memory controller is mounted on this machine";
  return nullptr;
}

bool MemoryCgroup::addProcess(int pid, std::string& problem) const {
  if (writeValue(dir_ / "cgroup.procs", std::to_string(pid))) return true;
  problem = "cannot move process " + std::to_string(pid) + " into " + dir_.string();
  return false;
}

std::uint64_t MemoryCgroup::peakBytes() const {
  return readNumber(dir_ / (v2_ ? "memory.peak" : "memory.max_usage_in_bytes"));
}

bool MemoryCgroup::limitHit() const {
  if (v2_) {
    std::istringstream events(readValue(dir_ / "memory.events"));
    std::string key;
    std::uint64_t n = 0;
    while (events >> key >> n)
      if ((key == "max" || key == "oom_kill" || key == "oom") && n > 0) return true;
    return false;
  }
  std::istringstream oom(readValue(dir_ / "memory.oom_control"));
  std::string key;
  std::uint64_t n = 0;
  while (oom >> key >> n)
    if (key == "oom_kill" && n > 0) return true;
  return readNumber(dir_ / "memory.failcnt") > 0;
}

MemoryCgroup::~MemoryCgroup() {
  // Normally empty by now (the pid namespace died with the run). Anything left is killed so that the
  // folder can go; a cgroup folder is removed with rmdir, not by deleting its files.
  for (int attempt = 0; attempt < 50; ++attempt) {
    std::istringstream procs(readValue(dir_ / "cgroup.procs"));
    bool any = false;
    for (int pid = 0; procs >> pid;) {
      any = true;
      ::kill(pid, SIGKILL);
    }
    if (::rmdir(dir_.c_str()) == 0 || (!any && errno == ENOENT)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace kwb
