// SPDX-License-Identifier: MIT
#pragma once
// Where kwb keeps what it reuses across runs (sim builds, reference builds, the emulator's precompiled
// header), and the check that makes such a folder trustworthy. Binaries in a cache are executed later,
// so a folder that someone else can write to (or swap for a symlink) would let them plant code: the
// folder must be a real directory, owned by us, not writable by group or others. See docs/sandbox.md.

#include <filesystem>
#include <string>
#include <vector>

namespace kwb {

// $XDG_CACHE_HOME/kernel-workbench, else ~/.cache/kernel-workbench ($HOME, else the passwd entry).
std::filesystem::path userCacheRoot();

// The evaluation cache: $KWB_EVAL_CACHE_DIR when set, else userCacheRoot(). Shared by `kwb eval`,
// `kwb suite eval`, `kwb run`, the GUI and lessons (one definition, not one per command).
std::filesystem::path defaultEvalCacheDir();

struct PrivateDirResult {
  bool ok = false;
  std::string error;                  // why the folder cannot be used (when !ok)
  std::vector<std::string> warnings;  // e.g. "was group-writable: emptied and recreated"
};

// Creates `dir` (mode 0700; missing parents with the usual mode) or checks the existing one:
//  - a symlink (at `dir` itself), not a directory, or owned by another uid: refused (error);
//  - ours but group/other-writable: anyone could have planted files, so it is emptied and recreated
//    0700 (warning).
PrivateDirResult preparePrivateDir(const std::filesystem::path& dir);

}  // namespace kwb
