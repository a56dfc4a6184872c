// SPDX-License-Identifier: MIT
#include "core/base/TempWorkDir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace kwb {

namespace fs = std::filesystem;

fs::path makeTempWorkDir(const std::string& prefix, std::string& error) {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / (prefix + "XXXXXX")).string();
  if (!::mkdtemp(pattern.data())) {
    error = "cannot create a work folder in " + base.string() + ": " + std::strerror(errno);
    return {};
  }
  if (::geteuid() == 0 && ::chmod(pattern.c_str(), 0755) != 0) {
    error = "cannot open the work folder " + pattern + " to the sandbox user: " + std::strerror(errno);
    ::rmdir(pattern.c_str());
    return {};
  }
  return pattern;
}

TempWorkDir& TempWorkDir::operator=(TempWorkDir&& other) noexcept {
  if (this != &other) {
    remove();
    dir_ = std::move(other.dir_);
    keep_ = other.keep_;
    other.dir_.clear();
  }
  return *this;
}

bool TempWorkDir::remove() {
  if (dir_.empty() || keep_) return dir_.empty();
  std::error_code ec;
  fs::remove_all(dir_, ec);
  if (ec) return false;
  dir_.clear();
  return true;
}

}  // namespace kwb
