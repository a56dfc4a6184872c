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

namespace {

// One block of 1 AIC + 2 AIV: the AIC copies `aicBytes` in and out, then (after a full barrier) raises
// flag 3 for its AIVs (mode 2); each AIV waits for it (or not, `withFlags` false), then adds a tile and
// copies it out.
kwb_sim::LaunchTrace chainTrace(bool withFlags, std::uint64_t aicBytes) {
  TraceBuilder tb("mix_chain");
  for (int s = 0; s < 3; ++s) {
    auto& bt = tb.block(s);
    bt.block = 0;
    bt.core = s == 0 ? 1 : 2;
    bt.subBlock = static_cast<std::uint8_t>(s == 0 ? 0 : s - 1);
  }
  tb.copyIn(0, 0x100000000ull, 0, aicBytes, 10);
  tb.copyOut(0, 0x200000000ull, 0, aicBytes, 11);
  if (withFlags) {
    tb.barrier(0, kwb_sim::Pipe::All, 12);  // the set follows all of the AIC's work
    kwb_sim::Instr set = tb.base("CrossCoreSetFlag", 12, kwb_sim::Pipe::S);
    set.syncId = 3;
    set.count = 2;
    tb.block(0).instrs.push_back(set);
  }
  for (int s = 1; s < 3; ++s) {
    if (withFlags) {
      kwb_sim::Instr wait = tb.base("CrossCoreWaitFlag", 20, kwb_sim::Pipe::All);
      wait.sync = kwb_sim::SyncKind::Barrier;
      wait.syncSrc = wait.syncDst = kwb_sim::Pipe::All;
      wait.syncId = 3;
      tb.block(s).instrs.push_back(wait);
    }
    tb.copyIn(s, 0x300000000ull + static_cast<std::uint64_t>(s) * 4096, 0, 4096, 21);
    tb.vec(s, "Add", 2048, 0, 0, 0, true, 22);
    tb.copyOut(s, 0x400000000ull + static_cast<std::uint64_t>(s) * 4096, 0, 4096, 23);
  }
  tb.trace().blockDim = 1;
  tb.trace().coresPerBlock = 3;
  return tb.trace();
}

}  // namespace

TEST(CostModelMix, AFlagWaitCostsAsTheChainItImposes) {
  // Without flags every lane starts at 0 and the launch is its slowest process; with the AIC's set
  // before the AIVs' waits, the AIVs' work starts after the AIC's copy-out: the launch is the chain.
  const Profile free = simulate(testSoc(), chainTrace(false, 64 * 1024));
  const Profile chained = simulate(testSoc(), chainTrace(true, 64 * 1024));
  ASSERT_EQ(chained.blocks.size(), 3u);
  const double aic = chained.blocks[0].cycles;
  const double aivAlone = free.blocks[1].cycles;
  EXPECT_GT(aic, aivAlone);  // the AIC is the slower process on its own
  EXPECT_NEAR(free.kernelCycles, std::max(free.blocks[0].cycles, aivAlone), 1e-6);
  // Each AIV's wait returns only after the AIC's set (its last record) plus the flag's latency, and
  // the AIV's own work follows: the launch is the chain, longer than either process alone.
  const InstrTiming& set = chained.timings[chained.blockOffset[1] - 1];
  for (std::size_t aiv = 1; aiv <= 2; ++aiv) {
    const InstrTiming& wait = chained.timings[chained.blockOffset[aiv]];
    EXPECT_GE(wait.end, set.end + testSoc().flagLatencyCycles - 1e-6) << aiv;
    EXPECT_GE(chained.timings[chained.blockOffset[aiv + 1] - 1].start, wait.end) << aiv;
  }
  EXPECT_GT(chained.kernelCycles, set.end + 0.5 * (free.blocks[1].cycles - testSoc().blockStartCycles));
  EXPECT_GT(chained.kernelCycles, free.kernelCycles * 1.05);
  // The AIVs' wait is accounted as scalar wait time, and no note says the timing did not converge.
  EXPECT_GT(chained.blocks[1].wait[static_cast<std::size_t>(kwb_sim::Pipe::S)], 0.5 * aic);
  for (const auto& n : chained.notes) EXPECT_EQ(n.find("cross-core waits"), std::string::npos) << n;
}
