// SPDX-License-Identifier: MIT
// Where an installed copy finds its data: relative to its executable, whatever the prefix.
#include <gtest/gtest.h>

#include <unistd.h>

#include "core/base/InstallLayout.h"

using namespace kwb;
namespace fs = std::filesystem;

TEST(InstallLayout, AnExecutableUnderAPrefixWithDataIsInstalled) {
  const fs::path prefix =
      fs::temp_directory_path() / ("kwb-layout-" + std::to_string(::getpid())) / "opt" / "kwb";
  fs::create_directories(prefix / "share" / "kernel-workbench" / "resources" / "tasks");
  fs::create_directories(prefix / "bin");
  const InstallLayout l = detectInstallLayout(prefix / "bin" / "kwb");
  EXPECT_TRUE(l.installed);
  EXPECT_EQ(l.dataRoot, prefix / "share" / "kernel-workbench");
  EXPECT_EQ(l.emulatorIncludeDir, prefix / "share" / "kernel-workbench" / "emulator" / "include");
  EXPECT_EQ(l.emulatorRuntimeLib, prefix / "lib" / "kernel-workbench" / "libkwb_sim_runtime.a");
  EXPECT_NE(l.describe().find("installed"), std::string::npos);
  fs::remove_all(prefix.parent_path().parent_path());
}

TEST(InstallLayout, ABuildTreeExecutableUsesTheCheckout) {
  const InstallLayout l = detectInstallLayout(fs::path(KWB_TEST_BIN_DIR) / "kwb_core_tests");
  EXPECT_FALSE(l.installed);
  EXPECT_EQ(l.dataRoot, fs::path(KWB_SOURCE_DIR));
  EXPECT_TRUE(fs::exists(l.emulatorIncludeDir / "kernel_operator.h"));
  EXPECT_FALSE(l.emulatorRuntimeLib.empty());
}
