// SPDX-License-Identifier: MIT
// The kernel scan and the generated launch functions of `kwb sim launch-stubs`
// (core/emulator/AclrtLaunchStubs.h), which the emulator's ascendc_library() runs on each kernel source.

#include "core/emulator/AclrtLaunchStubs.h"

#include <gtest/gtest.h>

using kwb::KernelParam;

TEST(AclrtLaunchStubs, FindsKernelDefinitionsAndClassifiesParameters) {
  const std::string src = R"(#include "kernel_operator.h"
// __global__ void in_comment(GM_ADDR x) {}
extern "C" __global__ __aicore__ void decl_only(GM_ADDR x);
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, __gm__ uint8_t* y, GM_ADDR z,
                                                 AddTiling tiling, uint32_t n, const float scale)
{
    const char* s = "__global__ void in_string(int a) {}";
}
template <typename T> __global__ __aicore__ void templated(GM_ADDR x) {}
__global__ __aicore__ void no_args() {}
__global__ __aicore__ void unnamed(GM_ADDR, int) {}
)";
  const auto scan = kwb::findKernelEntries(src);
  ASSERT_EQ(scan.kernels.size(), 3u);
  const auto& k = scan.kernels[0];
  EXPECT_EQ(k.name, "add_custom");
  EXPECT_EQ(k.line, 4);
  ASSERT_EQ(k.params.size(), 6u);
  EXPECT_EQ(k.params[0].kind, KernelParam::Kind::Pointer);
  EXPECT_EQ(k.params[1].kind, KernelParam::Kind::Pointer);
  EXPECT_EQ(k.params[1].name, "y");
  EXPECT_EQ(k.params[3].kind, KernelParam::Kind::ByValue);
  EXPECT_EQ(k.params[3].type, "AddTiling");
  EXPECT_EQ(k.params[4].kind, KernelParam::Kind::Scalar);
  EXPECT_EQ(k.params[5].kind, KernelParam::Kind::Scalar);
  EXPECT_EQ(k.params[5].name, "scale");
  EXPECT_EQ(scan.kernels[1].name, "no_args");
  EXPECT_TRUE(scan.kernels[1].params.empty());
  ASSERT_EQ(scan.kernels[2].params.size(), 2u);
  EXPECT_EQ(scan.kernels[2].params[0].name, "arg0");
  EXPECT_EQ(scan.kernels[2].params[1].name, "arg1");
  ASSERT_EQ(scan.skipped.size(), 1u);
  EXPECT_NE(scan.skipped[0].find("templated"), std::string::npos);
}

TEST(AclrtLaunchStubs, HeaderAndDefinitionUseCannsLaunchSignature) {
  const auto scan = kwb::findKernelEntries(
      "extern \"C\" __global__ __aicore__ void k(GM_ADDR x, T tiling, uint32_t n) {}\n");
  ASSERT_EQ(scan.kernels.size(), 1u);
  const std::string header = kwb::aclrtLaunchHeader(scan.kernels[0], "k.cpp");
  EXPECT_NE(header.find("extern \"C\" uint32_t aclrtlaunch_k(uint32_t blockDim, aclrtStream stream, void* x, "
                        "T* tiling, uint32_t n);"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func"),
            std::string::npos);
  const std::string defs = kwb::aclrtLaunchDefinitions(scan.kernels, "/src/k.cpp");
  EXPECT_NE(defs.find("#line 1 \"/src/k.cpp\""), std::string::npos) << defs;
  // The by-value parameter is copied from the pointer the host passes; a null one is refused.
  EXPECT_NE(defs.find("(blockDim, stream, x, *tiling, n)"), std::string::npos) << defs;
  EXPECT_NE(defs.find("tiling == nullptr"), std::string::npos) << defs;
}
