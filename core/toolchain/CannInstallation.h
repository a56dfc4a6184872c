// SPDX-License-Identifier: MIT
#pragma once
// Finds a CANN toolkit the way its set_env.sh scripts lay it out (classic 8.x and the CANN 9 layout).
// Only reports what is on disk; it never claims a device is present.

#include "core/base/Environment.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kwb {

struct CannInstallation {
  std::filesystem::path root;          // ASCEND_TOOLKIT_HOME / ASCEND_HOME_PATH
  std::string layout;                  // "cann8" (ascend-toolkit) or "cann9" (cann/)
  std::string foundVia;                // "ASCEND_TOOLKIT_HOME", "ASCEND_HOME_PATH" or "default location"
  std::optional<std::string> version;  // from version.info / *version.cfg when present
  std::optional<std::filesystem::path> bisheng;
  std::optional<std::filesystem::path> msprof;
  std::optional<std::filesystem::path> tikicpulib;  // tools/tikicpulib/lib
  std::vector<std::string> simulatorSocs;           // tools/simulator/<SoC>
};

// Looks at ASCEND_TOOLKIT_HOME, then ASCEND_HOME_PATH, then the default install roots under
// /usr/local/Ascend and $HOME/Ascend. Returns nullopt when no folder with a toolkit layout exists.
std::optional<CannInstallation> detectCann(const EnvLookup& env = processEnvironment());

// Inspects one candidate root; nullopt when it does not look like a toolkit.
std::optional<CannInstallation> inspectCannRoot(const std::filesystem::path& root,
                                                const std::string& foundVia);

}  // namespace kwb
