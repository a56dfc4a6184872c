// SPDX-License-Identifier: MIT
#include "core/base/Environment.h"

#include <cstdlib>

namespace kwb {

std::optional<std::string> environmentValue(const std::string& name) {
  if (const char* v = std::getenv(name.c_str()); v && *v) return std::string(v);
  return std::nullopt;
}

EnvLookup processEnvironment() {
  return [](const std::string& name) { return environmentValue(name); };
}

}  // namespace kwb
