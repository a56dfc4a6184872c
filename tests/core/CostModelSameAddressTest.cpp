// SPDX-License-Identifier: MIT
// GM access costs the devkit's data_copy experiments calibrate (docs/calibration.md): same-address
// serialisation (core/emulator/costmodel/SameLineReaders.h), bursts aligned to their own size, and GM->L1
// rows off a 32 B boundary.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/emulator/costmodel/CostModel.h"
#include "core/emulator/costmodel/SameLineReaders.h"
#include "tests/core/CostModelTraceBuilder.h"

namespace kwb::sim {
namespace {

using kwb_sim::MemSpace;

std::filesystem::path socDir() {
  return std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "soc";
}

constexpr std::uint64_t kMatrix = 0x10000000;
constexpr std::uint64_t kTile = std::uint64_t{16} * 1024;
constexpr std::uint64_t kGranule = 512;  // gm.same_address_granule_bytes of the 910B files

// `blocks` blocks each reading all `tiles` tiles of one matrix; staggered: block b starts at tile b.
kwb_sim::LaunchTrace everyBlockReadsTheMatrix(int blocks, int tiles, bool staggered) {
  test::TraceBuilder t("same_address", "Ascend910B1");
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < tiles; ++i) {
      const int tile = staggered ? (i + b) % tiles : i;
      t.copyIn(b, kMatrix + static_cast<std::uint64_t>(tile) * kTile, 0, kTile, 10);
    }
  return t.trace();
}

std::vector<std::size_t> offsets(const kwb_sim::LaunchTrace& trace) {
  std::vector<std::size_t> off{0};
  for (const auto& b : trace.blocks) off.push_back(off.back() + b.instrs.size());
  return off;
}

TEST(CostModelSameAddress, CountsTheBlocksReadingALineAtTheSameTime) {
  const auto same = everyBlockReadsTheMatrix(8, 8, false);
  for (float r : detail::sameLineReaders(same, offsets(same), kGranule)) EXPECT_FLOAT_EQ(r, 8.0f);
  const auto staggered = everyBlockReadsTheMatrix(8, 8, true);
  for (float r : detail::sameLineReaders(staggered, offsets(staggered), kGranule)) EXPECT_FLOAT_EQ(r, 1.0f);
  // Blocks reading their own rows (the usual split) never share a line.
  test::TraceBuilder own("own_rows", "Ascend910B1");
  for (int b = 0; b < 8; ++b)
    for (int i = 0; i < 8; ++i)
      own.copyIn(b, kMatrix + static_cast<std::uint64_t>(b * 8 + i) * kTile, 0, kTile, 10);
  const auto split = own.trace();
  for (float r : detail::sameLineReaders(split, offsets(split), kGranule)) EXPECT_FLOAT_EQ(r, 1.0f);
}

TEST(CostModelSameAddress, DifferentBytesOfOne512ByteRangeAreTheSameAddress) {
  // Four blocks each read their own 128 B of one 512 B range at once (a column split of 512 B rows, the
  // devkit guide's example): four readers of one address for the hardware, none with 128 B granules.
  test::TraceBuilder t("column_split", "Ascend910B1");
  for (int b = 0; b < 4; ++b)
    for (int row = 0; row < 8; ++row)
      t.copyIn(b, kMatrix + static_cast<std::uint64_t>(row) * 512 + static_cast<std::uint64_t>(b) * 128, 0,
               128, 10);
  const auto trace = t.trace();
  for (float r : detail::sameLineReaders(trace, offsets(trace), kGranule)) EXPECT_FLOAT_EQ(r, 4.0f);
  for (float r : detail::sameLineReaders(trace, offsets(trace), 128)) EXPECT_FLOAT_EQ(r, 1.0f);
  EXPECT_EQ(loadSocByName("Ascend910B1", socDir()).sameAddressGranuleBytes, kGranule);
}

TEST(CostModelSameAddress, HalfTheBlocksOnOneTileCountHalf) {
  // Blocks 0-3 read tile i, blocks 4-7 tile i + 4 (mod 8): two groups of four readers.
  test::TraceBuilder t("two_groups", "Ascend910B1");
  for (int b = 0; b < 8; ++b)
    for (int i = 0; i < 8; ++i)
      t.copyIn(b, kMatrix + static_cast<std::uint64_t>((i + (b / 4) * 4) % 8) * kTile, 0, kTile, 10);
  const auto trace = t.trace();
  for (float r : detail::sameLineReaders(trace, offsets(trace), kGranule)) EXPECT_FLOAT_EQ(r, 4.0f);
}

TEST(CostModelSameAddress, SameOrderIsSlowerThanStaggeredAndEqualWithoutTheModel) {
  SocParams soc = loadSocByName("Ascend910B1", socDir());
  ASSERT_GT(soc.sameLineReadBytesPerCycle, 0);
  const auto same = everyBlockReadsTheMatrix(48, 48, false);
  const auto staggered = everyBlockReadsTheMatrix(48, 48, true);
  const double sameUs = simulate(soc, same).totalUs, staggeredUs = simulate(soc, staggered).totalUs;
  // 48 readers of each line: every block gets 1/48 of the line rate; the MTE2 time per block is then
  // 48 x 768 KB / same_line_read_bytes_per_cycle.
  const double serialUs = 48.0 * 48 * kTile / soc.sameLineReadBytesPerCycle / soc.clockMhz;
  EXPECT_GT(sameUs, serialUs);
  EXPECT_LT(sameUs, serialUs * 1.2);
  EXPECT_GT(sameUs, staggeredUs * 2);
  soc.sameLineReadBytesPerCycle = 0;  // the model removed: the order no longer matters
  EXPECT_NEAR(simulate(soc, same).totalUs, simulate(soc, staggered).totalUs, 1e-6);
}

// One block moving 64 rows of `rowBytes` from `addr` (rows `pitch` apart) to UB or L1.
kwb_sim::LaunchTrace rows(MemSpace dst, std::uint64_t addr, std::uint32_t rowBytes, std::uint64_t pitch,
                          int copies) {
  test::TraceBuilder t("rows", "Ascend910B1");
  for (int i = 0; i < copies; ++i)
    t.copyIn(0, addr + static_cast<std::uint64_t>(i) * 64 * pitch, 0, std::uint64_t{64} * rowBytes, 10);
  auto trace = t.trace();
  for (auto& in : trace.blocks[0].instrs) {
    in.dstSpace = dst;
    in.burstCount = 64;
    in.burstLen = rowBytes;
    in.gmStride = pitch;
  }
  return trace;
}

TEST(CostModelGmAlignment, ABurstAlignedToItsOwnSizeLosesNothing) {
  const SocParams soc = loadSocByName("Ascend910B1", socDir());
  // 128 B rows on 128 B boundaries cost what they cost on 512 B boundaries (data_copy S2, L1 S1) ...
  const double at512 = simulate(soc, rows(MemSpace::UB, kMatrix, 128, 24576, 64)).totalUs;
  const double at128 = simulate(soc, rows(MemSpace::UB, kMatrix + 128, 128, 24576, 64)).totalUs;
  EXPECT_NEAR(at128, at512, 1e-9);
  // ... but not on 32 B boundaries, nor 512 B rows on 128 B boundaries (the devkit's 512 B advice).
  EXPECT_GT(simulate(soc, rows(MemSpace::UB, kMatrix + 32, 128, 24576, 64)).totalUs, at512 * 1.05);
  const double long512 = simulate(soc, rows(MemSpace::UB, kMatrix, 512, 24576, 64)).totalUs;
  EXPECT_GT(simulate(soc, rows(MemSpace::UB, kMatrix + 128, 512, 24576, 64)).totalUs, long512 * 1.05);
}

TEST(CostModelGmAlignment, GmToL1RowsOffA32ByteBoundaryMoveTwiceTheSectors) {
  const SocParams soc = loadSocByName("Ascend910B1", socDir());
  // Rows of 510 B with a pitch of 12287 halves (data_copy L1 S3) against aligned 512 B rows.
  const auto aligned = simulate(soc, rows(MemSpace::L1, kMatrix, 512, 24576, 64));
  const auto unaligned = simulate(soc, rows(MemSpace::L1, kMatrix, 510, 24574, 64));
  const double mte2 = aligned.pipes[static_cast<std::size_t>(kwb_sim::Pipe::MTE2)].busyCycles;
  const double mte2Unaligned = unaligned.pipes[static_cast<std::size_t>(kwb_sim::Pipe::MTE2)].busyCycles;
  EXPECT_GT(mte2Unaligned, mte2 * 1.7);
  EXPECT_LT(mte2Unaligned, mte2 * 2.1);
  // The same rows into UB lose only the unaligned-address factor.
  const double ub = simulate(soc, rows(MemSpace::UB, kMatrix, 512, 24576, 64))
                        .pipes[static_cast<std::size_t>(kwb_sim::Pipe::MTE2)]
                        .busyCycles;
  const double ubUnaligned = simulate(soc, rows(MemSpace::UB, kMatrix, 510, 24574, 64))
                                 .pipes[static_cast<std::size_t>(kwb_sim::Pipe::MTE2)]
                                 .busyCycles;
  EXPECT_LT(ubUnaligned, ub * 1.5);
}

TEST(CostModelCubeKernels, AGmToL1CopyRunsOnTheCubeCoresAndQuotesTheCubeError) {
  const SocParams soc = loadSocByName("Ascend910B1", socDir());
  ASSERT_TRUE(soc.expectedErrorPct.count("cube"));
  const Profile l1 = simulate(soc, rows(MemSpace::L1, kMatrix, 512, 24576, 64));
  EXPECT_EQ(l1.kernelKind, "cube");
  EXPECT_DOUBLE_EQ(l1.expectedErrorPct, soc.expectedErrorPct.at("cube"));
  const Profile ub = simulate(soc, rows(MemSpace::UB, kMatrix, 512, 24576, 64));
  EXPECT_EQ(ub.kernelKind, "vector");
  EXPECT_DOUBLE_EQ(ub.expectedErrorPct, soc.expectedErrorPct.at(ub.bound));
}

TEST(CostModelSameAddress, KernelsWhoseBlocksShareTheirDataQuoteTheSharedReadError) {
  const SocParams soc = loadSocByName("Ascend910B1", socDir());
  ASSERT_TRUE(soc.expectedErrorPct.count("shared_read"));
  const auto staggered = everyBlockReadsTheMatrix(8, 8, true);
  EXPECT_DOUBLE_EQ(detail::sharedReadShare(staggered, kGranule), 1.0);
  const Profile shared = simulate(soc, staggered);
  ASSERT_EQ(shared.bound, "memory");
  EXPECT_DOUBLE_EQ(shared.expectedErrorPct, soc.expectedErrorPct.at("shared_read"));
  // Blocks reading their own rows: the plain memory figure.
  test::TraceBuilder own("own_rows", "Ascend910B1");
  for (int b = 0; b < 8; ++b)
    for (int i = 0; i < 8; ++i)
      own.copyIn(b, kMatrix + static_cast<std::uint64_t>(b * 8 + i) * kTile, 0, kTile, 10);
  EXPECT_DOUBLE_EQ(detail::sharedReadShare(own.trace(), kGranule), 0.0);
  const Profile split = simulate(soc, own.trace());
  ASSERT_EQ(split.bound, "memory");
  EXPECT_DOUBLE_EQ(split.expectedErrorPct, soc.expectedErrorPct.at("memory"));
}

TEST(CostModelSameAddress, ACubeKernelWhoseBlocksShareTheirDataQuotesTheSharedReadError) {
  // data_copy_l1 S6/S7: every AIC block copies the same matrix to L1; the cube figure is for the rest.
  const SocParams soc = loadSocByName("Ascend910B1", socDir());
  auto staggered = everyBlockReadsTheMatrix(8, 8, true);
  for (auto& b : staggered.blocks)
    for (auto& in : b.instrs) in.dstSpace = MemSpace::L1;
  const Profile p = simulate(soc, staggered);
  ASSERT_EQ(p.kernelKind, "cube");
  ASSERT_EQ(p.bound, "memory");
  EXPECT_DOUBLE_EQ(p.expectedErrorPct, soc.expectedErrorPct.at("shared_read"));
}

}  // namespace
}  // namespace kwb::sim
