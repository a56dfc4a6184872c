// SPDX-License-Identifier: MIT
#include "core/base/PrivateCacheDir.h"
#include "core/base/Environment.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kwb {

namespace fs = std::filesystem;

namespace {

std::string octal(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

fs::path homeDir() {
  if (auto home = environmentValue("HOME")) return *home;
  if (const passwd* pw = ::getpwuid(::geteuid()); pw && pw->pw_dir && *pw->pw_dir) return pw->pw_dir;
  return {};
}

}  // namespace

fs::path userCacheRoot() {
  if (auto x = environmentValue("XDG_CACHE_HOME"); x && fs::path(*x).is_absolute())
    return fs::path(*x) / "kernel-workbench";
  const fs::path home = homeDir();
  // No home at all (a bare service account): a per-uid folder that preparePrivateDir still verifies.
  if (home.empty()) return fs::path("/var/tmp") / ("kernel-workbench-" + std::to_string(::geteuid()));
  return home / ".cache" / "kernel-workbench";
}

fs::path defaultEvalCacheDir() {
  if (auto c = environmentValue("KWB_EVAL_CACHE_DIR")) return *c;
  return userCacheRoot();
}

PrivateDirResult preparePrivateDir(const fs::path& dir) {
  PrivateDirResult r;
  if (dir.empty()) {
    r.error = "no cache folder given";
    return r;
  }
  std::error_code ec;
  if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ec);
  // mkdir, not create_directories: it fails on an existing symlink instead of following it.
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    r.error = "cannot create cache folder " + dir.string() + ": " + std::strerror(errno);
    return r;
  }
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    r.error = "cannot inspect cache folder " + dir.string() + ": " + std::strerror(errno);
    return r;
  }
  const uid_t me = ::geteuid();
  if (S_ISLNK(st.st_mode)) {
    r.error = "refusing cache folder " + dir.string() + ": it is a symbolic link (to " +
              fs::read_symlink(dir, ec).string() + "); remove it or point KWB_EVAL_CACHE_DIR elsewhere";
    return r;
  }
  if (!S_ISDIR(st.st_mode)) {
    r.error = "refusing cache folder " + dir.string() + ": it exists and is not a directory";
    return r;
  }
  if (st.st_uid != me) {
    r.error = "refusing cache folder " + dir.string() + ": it is owned by uid " + std::to_string(st.st_uid) +
              ", not by this user (uid " + std::to_string(me) + "); its binaries could have been planted";
    return r;
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    // Ours, but others could write into it: nothing inside can be trusted.
    fs::remove_all(dir, ec);
    if (ec || ::mkdir(dir.c_str(), 0700) != 0) {
      r.error =
          "cache folder " + dir.string() + " had mode " + octal(st.st_mode) +
          " (writable by others) and could not be recreated: " + (ec ? ec.message() : std::strerror(errno));
      return r;
    }
    r.warnings.push_back(
        "cache folder " + dir.string() + " had mode " + octal(st.st_mode) +
        " (writable by group or others): its contents were discarded and it was recreated 0700");
  }
  r.ok = true;
  return r;
}

}  // namespace kwb
