// SPDX-License-Identifier: MIT
#include "core/base/ExecutableSearch.h"
#include "core/base/Environment.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

namespace kwb {

std::optional<std::filesystem::path> findExecutable(const std::string& name,
                                                    const std::optional<std::string>& pathVariable) {
  if (name.empty()) return std::nullopt;
  auto usable = [](const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
  };
  if (name.find('/') != std::string::npos) {
    if (usable(name)) return std::filesystem::path(name);
    return std::nullopt;
  }
  std::string path;
  if (pathVariable) {
    path = *pathVariable;
  } else if (auto env = environmentValue("PATH")) {
    path = *env;
  }
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) dir = ".";
    auto candidate = std::filesystem::path(dir) / name;
    if (usable(candidate)) return candidate;
  }
  return std::nullopt;
}

}  // namespace kwb
