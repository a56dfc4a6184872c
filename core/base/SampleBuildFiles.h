// SPDX-License-Identifier: MIT
#pragma once
// Where an installed copy keeps the files that let the samples' own build files use the emulator
// (docs/emulator.md, "The samples' own build files"): the CMake package of find_package(ASC) and the
// CANN-layout folder ASCEND_HOME_PATH names. A build tree has neither (empty paths).

#include <filesystem>

#include "core/base/InstallLayout.h"

namespace kwb {

// <prefix>/lib/cmake/ASC (holds ASCConfig.cmake).
std::filesystem::path ascPackageDirectory(const InstallLayout& layout);
// <prefix>/share/kernel-workbench/cann.
std::filesystem::path cannLayoutDirectory(const InstallLayout& layout);
// The install prefix itself (for CMAKE_PREFIX_PATH).
std::filesystem::path installPrefix(const InstallLayout& layout);

}  // namespace kwb
