// SPDX-License-Identifier: MIT
#pragma once
// Unique work folders in the temp directory, removed when done. Fixed names such as
// /tmp/kwb-eval-<task>-<pid> can be pre-created by another local user (who then owns what kwb writes
// and runs there), and folders nobody removes pile up (gigabytes per evaluation): mkdtemp gives an
// unpredictable name that kwb alone created, and TempWorkDir removes it unless asked to keep it.

#include <filesystem>
#include <string>

namespace kwb {

// Creates $TMPDIR/<prefix>XXXXXX with mkdtemp (mode 0700). When kwb runs as root the sandbox runs
// programs as an unprivileged user that must read the folder, so it is then opened to 0755 (still
// writable by its owner only; the random name is what keeps others from pre-creating it).
// Returns an empty path with `error` set on failure.
std::filesystem::path makeTempWorkDir(const std::string& prefix, std::string& error);

// Owns a folder and removes it (recursively) on destruction, unless keep() was called.
class TempWorkDir {
 public:
  TempWorkDir() = default;
  explicit TempWorkDir(std::filesystem::path dir, bool keep = false) : dir_(std::move(dir)), keep_(keep) {}
  ~TempWorkDir() { remove(); }
  TempWorkDir(const TempWorkDir&) = delete;
  TempWorkDir& operator=(const TempWorkDir&) = delete;
  TempWorkDir(TempWorkDir&& other) noexcept { *this = std::move(other); }
  TempWorkDir& operator=(TempWorkDir&& other) noexcept;

  const std::filesystem::path& path() const { return dir_; }
  bool kept() const { return keep_; }
  void keep() { keep_ = true; }
  // Removes the folder now (no-op when kept or already removed). True when it is gone.
  bool remove();

 private:
  std::filesystem::path dir_;
  bool keep_ = false;
};

}  // namespace kwb
