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

std::filesystem::path socDir() {
  return std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "soc";
}

TEST(CostModelL2, LruHitsOnlyLinesAlreadyBroughtIn) {
  detail::L2Lru l2(64 * 1024);  // 16 chunks
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
  detail::L2Lru l2(64 * 1024);
  std::uint64_t lines = 0, hits = 0;
  for (int replay = 0; replay < 2; ++replay)
    for (std::uint64_t a = 0; a < 128 * 1024; a += 4096) l2.touch(a + 0x200000, 4096, lines, hits);
  EXPECT_EQ(hits, 0u);  // cyclic sweep over twice the capacity: LRU never hits
  detail::L2Lru small(64 * 1024);
  lines = hits = 0;
  for (int replay = 0; replay < 2; ++replay)
    for (std::uint64_t a = 0; a < 32 * 1024; a += 4096) small.touch(a + 0x200000, 4096, lines, hits);
  EXPECT_EQ(hits, lines / 2);  // half the footprint: the second sweep hits every line
}

// One block reading `bytes` from GM in 16 KB copies, `passes` times over the same addresses.
kwb_sim::LaunchTrace readLaunch(std::uint64_t bytes, int passes) {
  test::TraceBuilder t("read", "Ascend910B1");
  constexpr std::uint64_t kCopy = 16 * 1024;
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

}  // namespace
}  // namespace kwb::sim
