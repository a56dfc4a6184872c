// SPDX-License-Identifier: MIT
// The cost model's L2 residency model (core/emulator/costmodel/L2Model.h) and what it does to a launch's
// time: the L2-reuse effect of the devkit's data_copy example (docs/calibration.md).
#include <gtest/gtest.h>

#include <filesystem>

#include "core/emulator/costmodel/CostModel.h"
#include "core/emulator/costmodel/L2Model.h"
#include "tests/core/CostModelTraceBuilder.h"

namespace kwb::sim {
namespace {

using kwb_sim::MemSpace;

std::filesystem::path socDir() {
  return std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "soc";
}

TEST(CostModelL2, LruHitsOnlyLinesAlreadyBroughtIn) {
  detail::L2Lru l2(std::uint64_t{64} * 1024);  // 16 chunks
  std::uint64_t lines = 0, hits = 0;
  l2.touch(0x100000, 128, lines, hits);
  EXPECT_EQ(lines, 1u);
  EXPECT_EQ(hits, 0u);
  l2.touch(0x100080, 128, lines, hits);  // next line of the same chunk: still a miss
  EXPECT_EQ(hits, 0u);
  l2.touch(0x100000, 256, lines, hits);  // both lines now resident
  EXPECT_EQ(lines, 4u);
  EXPECT_EQ(hits, 2u);
}

TEST(CostModelL2, StreamingMoreThanTheCacheEvictsEverything) {
  detail::L2Lru l2(std::uint64_t{64} * 1024);
  std::uint64_t lines = 0, hits = 0;
  for (int replay = 0; replay < 2; ++replay)
    for (std::uint64_t a = 0; a < std::uint64_t{128} * 1024; a += 4096)
      l2.touch(a + 0x200000, 4096, lines, hits);
  EXPECT_EQ(hits, 0u);  // cyclic sweep over twice the capacity: LRU never hits
  detail::L2Lru small(std::uint64_t{64} * 1024);
  lines = hits = 0;
  for (int replay = 0; replay < 2; ++replay)
    for (std::uint64_t a = 0; a < std::uint64_t{32} * 1024; a += 4096)
      small.touch(a + 0x200000, 4096, lines, hits);
  EXPECT_EQ(hits, lines / 2);  // half the footprint: the second sweep hits every line
}

// One block reading `bytes` from GM in 16 KB copies, `passes` times over the same addresses.
kwb_sim::LaunchTrace readLaunch(std::uint64_t bytes, int passes) {
  test::TraceBuilder t("read", "Ascend910B1");
  constexpr std::uint64_t kCopy = std::uint64_t{16} * 1024;
  for (int p = 0; p < passes; ++p)
    for (std::uint64_t off = 0; off < bytes; off += kCopy) t.copyIn(0, 0x10000000 + off, 0, kCopy, 10);
  return t.trace();
}

TEST(CostModelL2, ResidentFootprintIsServedFromL2AndIsFaster) {
  SocParams soc = loadSocByName("Ascend910B1", socDir());
  ASSERT_GT(soc.l2AggregateBytesPerCycle, 0);
  const Profile warm = simulate(soc, readLaunch(8u << 20, 1));  // 8 MB: fits the 192 MB L2
  EXPECT_GT(warm.l2HitShare, 0.99);
  SocParams noL2 = soc;
  noL2.l2AggregateBytesPerCycle = 0;
  const Profile cold = simulate(noL2, readLaunch(8u << 20, 1));
  EXPECT_EQ(cold.l2HitShare, 0);
  EXPECT_LT(warm.totalUs, cold.totalUs * 0.6);  // L2 read rate well above the HBM path rate
}

TEST(CostModelL2, FootprintBeyondL2MissesUnlessAPartIsReread) {
  SocParams soc = loadSocByName("Ascend910B1", socDir());
  soc.l2Bytes = 4u << 20;  // a small L2 keeps the synthetic trace small
  const Profile stream = simulate(soc, readLaunch(16u << 20, 1));
  EXPECT_LT(stream.l2HitShare, 0.01);
  const Profile reread = simulate(soc, readLaunch(2u << 20, 8));  // a 2 MB part read 8 times
  EXPECT_GT(reread.l2HitShare, 0.99);
  EXPECT_LT(reread.totalUs, stream.totalUs);  // same bytes, less of them from HBM
}

// One block reading a 64 KB buffer ten times in 64 rows of `rowBytes` (pitch = rowBytes) into `dst`:
// every read after the first is an L2 hit.
kwb_sim::LaunchTrace rereadRows(MemSpace dst, std::uint32_t rowBytes) {
  test::TraceBuilder t("reread_rows", "Ascend910B3");
  const std::uint64_t copy = std::uint64_t{64} * rowBytes;
  for (int pass = 0; pass < 10; ++pass)
    for (std::uint64_t off = 0; off < std::uint64_t{64} * 1024; off += copy)
      t.copyIn(0, 0x10000000 + off, 0, copy, 10);
  auto trace = t.trace();
  for (auto& in : trace.blocks[0].instrs) {
    in.dstSpace = dst;
    in.burstCount = 64;
    in.burstLen = rowBytes;
    in.gmStride = rowBytes;
  }
  return trace;
}

double mte2Cycles(const Profile& p) {
  return p.pipes[static_cast<std::size_t>(kwb_sim::Pipe::MTE2)].busyCycles;
}

TEST(CostModelL2, TheCubeCoresGmToL1PathReadsL2AtItsOwnRate) {
  // docs/calibration.md, "Cube": data_copy_l1 S5 and the one-block matmul read L2 at ~107 B/cycle on the
  // AIC's GM->L1 path, the AIV's GM->UB path at 84.
  const SocParams soc = loadSocByName("Ascend910B3", socDir());
  const double l1Rate = soc.paths[static_cast<std::size_t>(Path::GmToL1)].l2BytesPerCycle;
  ASSERT_GT(l1Rate, soc.l2ReadBytesPerCycle);
  const Profile l1 = simulate(soc, rereadRows(MemSpace::L1, 512));
  const Profile ub = simulate(soc, rereadRows(MemSpace::UB, 512));
  ASSERT_GT(l1.l2HitShare, 0.85);
  const double ratio = mte2Cycles(ub) / mte2Cycles(l1);
  EXPECT_GT(ratio, 1.15);
  EXPECT_LT(ratio, l1Rate / soc.l2ReadBytesPerCycle * 1.02);
  SocParams same = soc;  // without the path's own rate both paths read L2 alike
  same.paths[static_cast<std::size_t>(Path::GmToL1)].l2BytesPerCycle = 0;
  EXPECT_NEAR(mte2Cycles(simulate(same, rereadRows(MemSpace::L1, 512))), mte2Cycles(ub),
              mte2Cycles(ub) * 0.01);
}

TEST(CostModelL2, ShortBurstsCostExtraOnlyWhenTheyGoToHbm) {
  // docs/calibration.md, "Per-burst cost": the 640 bursts of 128 B pay gm.burst_cycles only on their share
  // that misses L2 (the first of ten passes); with every byte from HBM (no L2 model) all of them pay it.
  SocParams soc = loadSocByName("Ascend910B3", socDir());
  ASSERT_GT(soc.gmBurstCycles, 0);
  const auto burstCost = [](SocParams s) {
    const double with = mte2Cycles(simulate(s, rereadRows(MemSpace::UB, 128)));
    s.gmBurstCycles = 0;
    return with - mte2Cycles(simulate(s, rereadRows(MemSpace::UB, 128)));
  };
  const double bursts = 10.0 * 64 * 1024 / 128;
  const Profile hit = simulate(soc, rereadRows(MemSpace::UB, 128));
  ASSERT_GT(hit.l2HitShare, 0.85);
  EXPECT_NEAR(burstCost(soc), bursts * soc.gmBurstCycles * (1 - hit.l2HitShare), bursts * 0.01);
  soc.l2AggregateBytesPerCycle = 0;
  EXPECT_NEAR(burstCost(soc), bursts * soc.gmBurstCycles, bursts * 0.01);
}

}  // namespace
}  // namespace kwb::sim
