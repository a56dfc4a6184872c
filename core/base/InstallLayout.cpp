// SPDX-License-Identifier: MIT
#include "core/base/InstallLayout.h"

#include "core/base/PrivateCacheDir.h"

#include <unistd.h>

namespace kwb {

namespace fs = std::filesystem;

namespace {

// Never a fixed name in the shared temp folder: another user could pre-create it and plant a PCH.
fs::path userCacheDir() {
  return userCacheRoot() / "sim";
}

}  // namespace

std::string InstallLayout::describe() const {
  return std::string(installed ? "installed" : "build tree") + ": data " + dataRoot.string() +
         ", emulator headers " + emulatorIncludeDir.string() + ", runtime " + emulatorRuntimeLib.string();
}

InstallLayout detectInstallLayout(const fs::path& executable) {
  InstallLayout l;
  std::error_code ec;
  const fs::path prefix = executable.parent_path().parent_path();
  const fs::path share = prefix / "share" / "kernel-workbench";
  if (!executable.empty() && fs::is_directory(share / "resources" / "tasks", ec)) {
    l.installed = true;
    l.dataRoot = share;
    l.emulatorIncludeDir = share / "emulator" / "include";
    l.emulatorRuntimeLib = prefix / "lib" / "kernel-workbench" / "libkwb_sim_runtime.a";
    l.simCacheDir = userCacheDir();
    return l;
  }
  l.dataRoot = KWB_SOURCE_DIR;
#ifdef KWB_SIM_INCLUDE_DIR
  l.emulatorIncludeDir = KWB_SIM_INCLUDE_DIR;
#endif
#ifdef KWB_SIM_RUNTIME_LIB
  l.emulatorRuntimeLib = KWB_SIM_RUNTIME_LIB;
#endif
#ifdef KWB_SIM_CACHE_DIR
  l.simCacheDir = KWB_SIM_CACHE_DIR;
#else
  l.simCacheDir = userCacheDir();
#endif
  return l;
}

InstallLayout currentInstallLayout(const EnvLookup& env) {
  std::error_code ec;
  InstallLayout l = detectInstallLayout(fs::read_symlink("/proc/self/exe", ec));
  if (auto d = env("KWB_DATA_DIR")) l.dataRoot = *d;
  return l;
}

fs::path socDirectory(const InstallLayout& layout, const EnvLookup& env) {
  if (auto d = env("KWB_SIM_SOC_DIR")) return *d;
  return layout.dataRoot / "resources" / "soc";
}

fs::path simCacheDirectory(const InstallLayout& layout, const EnvLookup& env) {
  if (auto d = env("KWB_SIM_CACHE_DIR")) return *d;
  std::error_code ec;
  fs::create_directories(layout.simCacheDir, ec);
  if (!ec && !layout.simCacheDir.empty() && ::access(layout.simCacheDir.c_str(), W_OK) == 0)
    return layout.simCacheDir;
  return userCacheDir();
}

std::string emulatorCompiler(const EnvLookup& env) {
  return env("KWB_SIM_CXX").value_or("g++");
}

}  // namespace kwb
