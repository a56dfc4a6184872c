// SPDX-License-Identifier: MIT
// The cost model on a mix kernel's records (docs/emulator.md, "Mixed AIC/AIV kernels"): one lane per
// sub-core process, the SoC's AIC/AIV counts bounding how many blocks run at once, and the writers naming
// AIC and AIV lanes.

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/emulator/costmodel/CostModel.h"
#include "tests/core/CostModelTraceBuilder.h"

using namespace kwb::sim;
using namespace kwb::sim::test;

namespace {

const SocParams& testSoc() {  // 2 AIC, 4 AIV: two blocks of 1 AIC + 2 AIV at once
  static const SocParams s =
      loadSocParams(std::filesystem::path(KWB_FIXTURES_DIR) / "costmodel" / "TestSoc.json");
  return s;
}

// `blocks` blocks of 1 AIC + `aivs` AIV: the AIC copies a tile in and out, each AIV adds a tile.
kwb_sim::LaunchTrace mixTrace(int blocks, int aivs) {
  TraceBuilder tb("mix_kernel");
  const int per = 1 + aivs;
  for (int b = 0; b < blocks; ++b) {
    for (int s = 0; s < per; ++s) {
      const int u = b * per + s;
      tb.copyIn(u, 0x100000000ull + static_cast<std::uint64_t>(u) * 4096, 0, 4096, 10);
      if (s > 0) tb.vec(u, "Add", 2048, 0, 0, 0, true, 11);
      tb.copyOut(u, 0x200000000ull + static_cast<std::uint64_t>(u) * 4096, 0, 4096, 12);
      auto& bt = tb.block(u);
      bt.block = b;
      bt.core = s == 0 ? 1 : 2;
      bt.subBlock = static_cast<std::uint8_t>(s == 0 ? 0 : s - 1);
    }
  }
  tb.trace().blockDim = static_cast<std::uint32_t>(blocks);
  tb.trace().coresPerBlock = static_cast<std::uint32_t>(per);
  return tb.trace();
}

}  // namespace

TEST(CostModelMix, EverySubCoreIsALaneAndTheSocBoundsTheBlocksAtOnce) {
  const auto trace = mixTrace(3, 2);
  const Profile p = simulate(testSoc(), trace);
  EXPECT_EQ(p.kernelKind, "mix");
  EXPECT_EQ(p.coresPerBlock, 3u);
  EXPECT_EQ(p.cores, 6);  // min(2 AIC, 4 AIV / 2) blocks of 3 processes
  ASSERT_EQ(p.blocks.size(), 9u);
  for (std::size_t u = 0; u < p.blocks.size(); ++u) {
    EXPECT_EQ(p.blocks[u].block, static_cast<int>(u / 3));
    EXPECT_EQ(p.blocks[u].coreKind, u % 3 == 0 ? "AIC" : "AIV") << u;
    EXPECT_EQ(p.blocks[u].subBlock, u % 3 == 0 ? 0 : static_cast<int>(u % 3 - 1)) << u;
  }
  // The third block waits for a free group of lanes: it starts after the first ones ended.
  EXPECT_GT(p.blocks[6].startCycle, 0.0);
  EXPECT_TRUE(p.notes.empty() || p.notes.front().find("blockDim") == std::string::npos);
}

TEST(CostModelMix, WritersNameAicAndAivLanes) {
  const auto trace = mixTrace(2, 2);
  const Profile p = simulate(testSoc(), trace);
  std::ostringstream chrome;
  writeChromeTrace(p, trace, chrome);
  const auto j = nlohmann::json::parse(chrome.str());
  std::set<std::string> names;
  for (const auto& e : j["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "process_name") names.insert(e["args"]["name"].get<std::string>());
  std::size_t aic = 0, aiv = 0;
  for (const auto& n : names) {
    aic += n.find("(AIC)") != std::string::npos ? 1 : 0;
    aiv += n.find("(AIV)") != std::string::npos ? 1 : 0;
  }
  EXPECT_EQ(aic, 2u);
  EXPECT_EQ(aiv, 4u);
  std::ostringstream basic;
  writeOpBasicInfoCsv(p, basic);
  EXPECT_NE(basic.str().find(",mix,"), std::string::npos) << basic.str();
  EXPECT_NE(basic.str().find(",2,4,emulator"), std::string::npos) << basic.str();  // block dim, mix block dim
  std::ostringstream util;
  writePipeUtilizationCsv(p, util);
  EXPECT_NE(util.str().find("\n0,1,"), std::string::npos) << util.str();  // block 0, sub-block 1
  const nlohmann::json prof = profileToJson(p);
  EXPECT_EQ(prof["blocks"][1]["core_kind"], "AIV");
}
