// SPDX-License-Identifier: MIT
// `kwb sim cc` argument handling (core/emulator/AscCompilerDriver.h): what CMake's ASC rules pass.

#include "core/emulator/AscCompilerDriver.h"

#include <gtest/gtest.h>

TEST(AscCompilerDriver, CompileLineFromCMake) {
  const auto inv =
      kwb::parseAscInvocation({"-DFOO=1", "-I/inc", "-O0", "-g", "--npu-arch=dav-2002", "-MD", "-MT", "obj.o",
                               "-MF", "obj.o.d", "-o", "obj.o", "-c", "/src/add.asc"});
  EXPECT_TRUE(inv.errors.empty());
  EXPECT_TRUE(inv.compileOnly);
  EXPECT_EQ(inv.output, "obj.o");
  ASSERT_EQ(inv.sources.size(), 1u);
  EXPECT_EQ(inv.sources[0], "/src/add.asc");
  EXPECT_EQ(inv.soc, "Ascend310P1");
  const std::vector<std::string> pass = {"-DFOO=1", "-I/inc", "-O0", "-g",     "-MD",
                                         "-MT",     "obj.o",  "-MF", "obj.o.d"};
  EXPECT_EQ(inv.passFlags, pass);
}

TEST(AscCompilerDriver, LinkLineAndRefusals) {
  const auto link = kwb::parseAscInvocation({"--npu-arch=dav-2201", "a.o", "b.o", "-o", "demo", "-lm"});
  EXPECT_TRUE(link.errors.empty());
  EXPECT_FALSE(link.compileOnly);
  EXPECT_EQ(link.soc, "Ascend910B1");
  EXPECT_EQ(link.linkInputs, (std::vector<std::string>{"a.o", "b.o"}));

  const auto arch = kwb::parseAscInvocation({"--npu-arch=dav-3510", "-c", "x.asc", "-o", "x.o"});
  ASSERT_EQ(arch.errors.size(), 1u);
  EXPECT_NE(arch.errors[0].find("dav-3510"), std::string::npos);
  EXPECT_NE(arch.errors[0].find("dav-2201"), std::string::npos);

  const auto none = kwb::parseAscInvocation({});
  EXPECT_EQ(none.errors.size(), 2u);  // no output, no input
  EXPECT_EQ(kwb::runAscInvocation(none), 2);
}
