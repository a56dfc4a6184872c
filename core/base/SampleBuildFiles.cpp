// SPDX-License-Identifier: MIT
#include "core/base/SampleBuildFiles.h"

namespace kwb {

// The runtime library's place is fixed relative to the prefix (<prefix>/lib/kernel-workbench/...),
// and, unlike the data root, not moved by KWB_DATA_DIR.
std::filesystem::path installPrefix(const InstallLayout& layout) {
  if (!layout.installed) return {};
  return layout.emulatorRuntimeLib.parent_path().parent_path().parent_path();
}

std::filesystem::path ascPackageDirectory(const InstallLayout& layout) {
  const auto prefix = installPrefix(layout);
  return prefix.empty() ? prefix : prefix / "lib" / "cmake" / "ASC";
}

std::filesystem::path cannLayoutDirectory(const InstallLayout& layout) {
  const auto prefix = installPrefix(layout);
  return prefix.empty() ? prefix : prefix / "share" / "kernel-workbench" / "cann";
}

}  // namespace kwb
