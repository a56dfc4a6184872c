// SPDX-License-Identifier: MIT
#pragma once
// Where the workbench finds its data and its emulator at run time.
//
// A build tree uses the source checkout (KWB_SOURCE_DIR: resources/, docs/) and the build's emulator
// runtime library. An installed copy (`cmake --install`, the .deb) finds everything relative to its own
// executable, so the install prefix can move:
//   <prefix>/bin/kwb, <prefix>/bin/kernel-workbench
//   <prefix>/share/kernel-workbench/{resources,docs}       data root
//   <prefix>/share/kernel-workbench/emulator/include        kernel_operator.h, tikicpulib.h, ...
//   <prefix>/lib/kernel-workbench/libkwb_sim_runtime.a     linked into every emulated program
// KWB_DATA_DIR overrides the data root in both cases.

#include "core/base/Environment.h"

#include <filesystem>
#include <string>

namespace kwb {

struct InstallLayout {
  bool installed = false;          // found next to the executable, not the build tree
  std::filesystem::path dataRoot;  // holds resources/ and docs/candidate-contract.md
  std::filesystem::path emulatorIncludeDir;
  std::filesystem::path emulatorRuntimeLib;
  std::filesystem::path simCacheDir;  // PCH and built programs (build tree: inside the build folder)
  std::string describe() const;       // one line for `kwb doctor`
};

// The layout for an executable at `executable`: installed when
// <exe dir>/../share/kernel-workbench/resources/tasks exists, else the build tree's compiled-in paths.
InstallLayout detectInstallLayout(const std::filesystem::path& executable);
// detectInstallLayout(/proc/self/exe), with KWB_DATA_DIR applied.
InstallLayout currentInstallLayout(const EnvLookup& env = processEnvironment());

// The one rule for each folder and tool the emulator path uses (docs/architecture.md, "Shared basics"):
// the SoC files: $KWB_SIM_SOC_DIR, else <data root>/resources/soc (the emulator runtime honours the
// same variable, so one setting moves both).
std::filesystem::path socDirectory(const InstallLayout& layout, const EnvLookup& env = processEnvironment());
// PCHs and built programs: $KWB_SIM_CACHE_DIR, else the layout's folder when it can be created and
// written, else userCacheRoot()/sim. May create the layout's folder.
std::filesystem::path simCacheDirectory(const InstallLayout& layout,
                                        const EnvLookup& env = processEnvironment());
// The compiler of emulated programs (and of their preprocessing for the policy): $KWB_SIM_CXX, else g++.
std::string emulatorCompiler(const EnvLookup& env = processEnvironment());

}  // namespace kwb
