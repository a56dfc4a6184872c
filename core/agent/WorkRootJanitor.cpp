// SPDX-License-Identifier: MIT
#include "core/agent/WorkRootJanitor.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <sstream>

namespace kwb {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMarkerFormat = "kwb-scratch-owner 1";

std::string readSmallFile(const fs::path& p, std::size_t limit = 4096) {
  std::ifstream in(p, std::ios::binary);
  std::string s(limit, '\0');
  in.read(s.data(), static_cast<std::streamsize>(limit));
  s.resize(static_cast<std::size_t>(in.gcount()));
  return s;
}

std::string bootId() {
  std::string id = readSmallFile("/proc/sys/kernel/random/boot_id", 64);
  while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
  return id;
}

// Field 22 of /proc/PID/stat (start time in clock ticks since boot): with the pid, it names one
// process for the life of the boot, so a reused pid is not mistaken for the owner.
std::optional<std::string> startTime(long pid) {
  const std::string stat = readSmallFile("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  if (stat.empty() || close == std::string::npos) return std::nullopt;
  std::istringstream rest(stat.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22 && rest >> field; ++i) {
    if (i == 22) return field;
  }
  return std::nullopt;
}

struct Owner {
  long pid = 0;
  std::string start;
  std::string boot;
};

std::optional<Owner> parseMarker(const std::string& text) {
  std::istringstream in(text);
  std::string format, key;
  Owner o;
  if (!std::getline(in, format) || format != kMarkerFormat) return std::nullopt;
  if (!(in >> key >> o.pid) || key != "pid" || o.pid <= 0) return std::nullopt;
  if (!(in >> key >> o.start) || key != "start") return std::nullopt;
  if (!(in >> key >> o.boot) || key != "boot") return std::nullopt;
  return o;
}

bool ownedRealEntry(const fs::path& p, mode_t type) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0 && (st.st_mode & S_IFMT) == type && st.st_uid == ::geteuid();
}

}  // namespace

std::string writeScratchOwner(const fs::path& root) {
  const auto start = startTime(::getpid());
  if (!start) return "cannot read this process's start time from /proc";
  std::ofstream out(root / kScratchOwnerFile, std::ios::binary | std::ios::trunc);
  out << kMarkerFormat << "\npid " << ::getpid() << "\nstart " << *start << "\nboot " << bootId() << "\n";
  out.close();
  return out ? std::string() : "cannot write " + (root / kScratchOwnerFile).string();
}

std::vector<fs::path> removeAbandonedScratch(const fs::path& base, const std::string& prefix) {
  std::vector<fs::path> candidates;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(base, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > prefix.size() && name.rfind(prefix, 0) == 0) candidates.push_back(entry.path());
  }
  const std::string boot = bootId();
  std::vector<fs::path> removed;
  for (const auto& dir : candidates) {
    if (!ownedRealEntry(dir, S_IFDIR)) continue;
    const fs::path marker = dir / kScratchOwnerFile;
    if (!ownedRealEntry(marker, S_IFREG)) continue;
    const auto owner = parseMarker(readSmallFile(marker));
    if (!owner) continue;
    const bool sameBoot = !boot.empty() && owner->boot == boot;
    if (sameBoot) {
      if (owner->pid == ::getpid()) continue;
      const auto start = startTime(owner->pid);
      if (start && *start == owner->start) continue;  // the owner still runs
    }
    // remove_all removes symlinks inside, never what they point to.
    fs::remove_all(dir, ec);
    if (!ec) removed.push_back(dir);
  }
  return removed;
}

std::vector<fs::path> removeAbandonedAgentScratch() {
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  if (ec) return {};
  return removeAbandonedScratch(base, kAgentScratchPrefix);
}

}  // namespace kwb
