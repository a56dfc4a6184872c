// SPDX-License-Identifier: MIT
#pragma once
// One cgroup per sandboxed run that caps the memory of all its processes together. RLIMIT_AS is per
// process, and a run may have many processes (one per emulated block): without this, N processes may
// each hold the per-process limit at once. cgroup v2 (memory.max, memory.swap.max, pids.max) where
// the machine delegates a memory controller to us, else the cgroup v1 memory hierarchy
// (memory.limit_in_bytes, memory.memsw.limit_in_bytes). Where neither can be created the caller gets
// the reason and runs with rlimits only, saying so loudly (docs/sandbox.md, "Aggregate memory").

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace kwb {

class MemoryCgroup {
 public:
  // A fresh cgroup below this process's own one, limited to `bytes`; nullptr with `problem` set when
  // the machine does not let us create one.
  static std::unique_ptr<MemoryCgroup> create(std::uint64_t bytes, std::string& problem);
  ~MemoryCgroup();
  MemoryCgroup(const MemoryCgroup&) = delete;
  MemoryCgroup& operator=(const MemoryCgroup&) = delete;

  // Moves `pid` (and so every process it starts afterwards) into the cgroup.
  bool addProcess(int pid, std::string& problem) const;
  // Highest memory use seen (0 when the controller does not say).
  std::uint64_t peakBytes() const;
  // The limit was reached at least once (allocations failed or a process was OOM-killed).
  bool limitHit() const;
  std::uint64_t limitBytes() const { return limit_; }
  const std::filesystem::path& path() const { return dir_; }
  // "cgroup v2" or "cgroup v1".
  std::string kind() const { return v2_ ? "cgroup v2" : "cgroup v1"; }

 private:
  MemoryCgroup(std::filesystem::path dir, bool v2, std::uint64_t limit)
      : dir_(std::move(dir)), v2_(v2), limit_(limit) {}
  std::filesystem::path dir_;
  bool v2_ = false;
  std::uint64_t limit_ = 0;
};

}  // namespace kwb
