// SPDX-License-Identifier: MIT
#pragma once
// What a sandboxed run of untrusted code (a candidate's binary, a generated host harness) may do.
// See docs/sandbox.md for how each limit is enforced.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace kwb {

enum class SandboxIsolation {
  Auto,         // bubblewrap when it works here, else rlimits only (with a warning diagnostic)
  Bubblewrap,   // bubblewrap or nothing: the run fails with a sandbox-setup error when unavailable
  RlimitsOnly,  // never bubblewrap (tests of the fallback; hosts where namespaces are forbidden)
};

struct SandboxPolicy {
  // The only writable place, and the working directory. Created when missing. When the workbench runs
  // as root the program runs as `sandboxUid`, and the scratch folder (with what is in it) is handed
  // to that user.
  std::filesystem::path scratchDir;
  // Bound read-only at the same path inside the sandbox (e.g. the folder holding the program).
  std::vector<std::filesystem::path> readOnlyPaths;
  // Existing regular files bound read-write at the same path, on top of the read-only folders. With a
  // tmpfs scratch these are the only things a run can leave behind: a folder bound read-only with a
  // few files bound writable inside it lets the program fill those files (up to maxFileSizeBytes each)
  // but never create, rename, link or replace an entry (docs/sandbox.md, "Trusted evaluation").
  std::vector<std::filesystem::path> writableFiles;
  // Non-zero (bubblewrap only): the scratch folder is a fresh private tmpfs of this many bytes mounted
  // at scratchDir inside the sandbox, so its total size is capped by the kernel and nothing written
  // there survives the run. Zero: scratchDir is the host folder, bound read-write (uncapped in total).
  std::uint64_t scratchTmpfsBytes = 0;
  // Non-zero: all processes of the run together may use at most this much memory (a cgroup of their
  // own, core/sandbox/MemoryCgroup.h). Where no cgroup can be created the run goes ahead with the
  // per-process RLIMIT_AS only and a `sandbox-setup` warning says so.
  std::uint64_t totalMemoryBytes = 0;

  std::chrono::milliseconds wallTimeout{30000};  // whole run, then the process tree is killed
  int cpuSeconds = 30;                           // RLIMIT_CPU per process (SIGXCPU)
  std::uint64_t addressSpaceBytes = 8ull << 30;  // RLIMIT_AS per process
  int maxProcesses = 64;                         // tasks (processes + threads) of the sandbox
  std::uint64_t maxFileSizeBytes = 1ull << 30;   // RLIMIT_FSIZE (SIGXFSZ)
  int maxOpenFiles = 1024;                       // RLIMIT_NOFILE
  std::uint64_t tmpfsBytes = 256ull << 20;       // size of the private /tmp and /dev/shm
  std::size_t outputCap = 8u << 20;              // per stream; past it the program is killed
  bool allowNetwork = false;

  // Added to the minimal environment (PATH, HOME=scratch, TMPDIR, LANG). Nothing else is inherited.
  std::map<std::string, std::string> environment;

  SandboxIsolation isolation = SandboxIsolation::Auto;
  // The unprivileged identity used when the workbench itself runs as root (root ignores the process
  // limit and may write anywhere outside the mount namespace). Default: nobody/nogroup.
  unsigned sandboxUid = 65534;
  unsigned sandboxGid = 65534;
};

}  // namespace kwb
