// SPDX-License-Identifier: MIT
// UB bank conflicts of vector instructions (core/emulator/costmodel/UbBanks.h): the devkit guide's
// 910B examples, the cost of a conflicting placement, and the performance hint that names it
// (docs/calibration.md, "UB bank conflicts").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "core/emulator/costmodel/CostModel.h"
#include "core/emulator/costmodel/UbBanks.h"
#include "tests/core/CostModelTraceBuilder.h"

namespace kwb::sim {
namespace {

using kwb_sim::DType;
using kwb_sim::Instr;
using kwb_sim::MemSpace;
using kwb_sim::Pipe;

std::filesystem::path socDir() {
  return std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "soc";
}

UbBankGeometry geometry910B() {
  const SocParams soc = loadSocByName("Ascend910B1", socDir());
  return soc.ubBanks;
}

// One vector record over `bytes` per operand (a single repeat when bytes <= 256); src1Off < 0: unary.
Instr vectorRecord(std::uint32_t dstOff, std::uint32_t src0Off, long src1Off, std::uint32_t bytes,
                   std::uint32_t repeat = 1) {
  Instr in;
  in.pipe = Pipe::V;
  in.dtype = in.srcDtype = DType::F16;
  in.dstSpace = in.srcSpace = MemSpace::UB;
  in.count = bytes / 2;
  in.bytes = bytes;
  in.repeat = repeat;
  in.dstOff = dstOff;
  in.dstLen = bytes;
  in.src0Off = src0Off;
  in.src0Len = bytes;
  if (src1Off >= 0) {
    in.src1Off = static_cast<std::uint32_t>(src1Off);
    in.src1Len = bytes;
  }
  return in;
}

TEST(CostModelBankConflict, SocFileCarriesTheDocumentedBankLayout) {
  const UbBankGeometry g = geometry910B();
  ASSERT_TRUE(g.present());
  EXPECT_EQ(g.rowBytes, 32u);
  EXPECT_EQ(g.groups, 16u);
  EXPECT_EQ(g.banksPerGroup, 3u);
  EXPECT_EQ(g.rowsPerBank, 128u);
  EXPECT_EQ(std::uint64_t{g.rowBytes} * g.groups * g.banksPerGroup * g.rowsPerBank, 192u * 1024u);
  // No bank layout is published for 310P: no conflicts are modelled there.
  EXPECT_FALSE(loadSocByName("Ascend310P3", socDir()).ubBanks.present());
}

TEST(CostModelBankConflict, ReadWriteExamplesOfTheGuide) {
  const UbBankGeometry g = geometry910B();
  // src 0x10020 (bank17) and dst 0x10000 (bank16): no conflict.
  UbBankConflicts c = ubBankConflicts(g, vectorRecord(0x10000, 0x10020, -1, 32));
  EXPECT_EQ(c.kinds, 0);
  EXPECT_DOUBLE_EQ(c.beatsPerRepeat, 1.0);
  // src 0x10020 and dst 0x10E20: both in bank17.
  c = ubBankConflicts(g, vectorRecord(0x10E20, 0x10020, -1, 32));
  EXPECT_EQ(c.kinds, kReadWriteConflict);
  EXPECT_DOUBLE_EQ(c.beatsPerRepeat, 1.0 + g.readWriteBeats);
  // dst 0x20020 is bank33: same group as bank17, another bank, so a read and a write do not conflict.
  c = ubBankConflicts(g, vectorRecord(0x20020, 0x10020, -1, 32));
  EXPECT_EQ(c.kinds, 0);
}

TEST(CostModelBankConflict, ReadReadExamplesOfTheGuide) {
  const UbBankGeometry g = geometry910B();
  // src0 0x10020 (bank17) and src1 0x20020 (bank33): same bank group, read in turn.
  UbBankConflicts c = ubBankConflicts(g, vectorRecord(0x28040, 0x10020, 0x20020, 32));
  EXPECT_EQ(c.kinds, kReadReadConflict);
  EXPECT_DOUBLE_EQ(c.beatsPerRepeat, 2.0);
  // src0 0x10020 and src1 0x10000: different groups.
  c = ubBankConflicts(g, vectorRecord(0x28040, 0x10020, 0x10000, 32));
  EXPECT_EQ(c.kinds, 0);
  EXPECT_DOUBLE_EQ(c.beatsPerRepeat, 1.0);
}

TEST(CostModelBankConflict, WriteWriteExamplesOfTheGuide) {
  const UbBankGeometry g = geometry910B();
  // dst 0x1FE00, block stride 16 blocks (512 B): all 8 DataBlocks in one bank group, 8 cycles a repeat.
  UbBankConflicts c = ubBankConflicts(g, vectorRecord(0x1FE00, 0x28000, -1, 7 * 512 + 32));
  EXPECT_EQ(c.kinds & kWriteWriteConflict, kWriteWriteConflict);
  EXPECT_GE(c.beatsPerRepeat, 8.0);
  // Block stride 8 (256 B): blocks 0,2,4,6 and 1,3,5,7 share a group, 4 cycles a repeat.
  c = ubBankConflicts(g, vectorRecord(0x1FE00, 0x28000, -1, 7 * 256 + 32));
  EXPECT_EQ(c.kinds & kWriteWriteConflict, kWriteWriteConflict);
  EXPECT_GE(c.beatsPerRepeat, 4.0);
  EXPECT_LT(c.beatsPerRepeat, 5.0);
}

TEST(CostModelBankConflict, ContiguousOperandsHalfARepeatApartDoNotConflict) {
  const UbBankGeometry g = geometry910B();
  // 64 repeats of a 16 KB fp16 Mul: sources at the same offset modulo 512 B read every group twice per
  // repeat; moving one by 256 B puts their 8 blocks into the other 8 groups.
  const UbBankConflicts same = ubBankConflicts(g, vectorRecord(0x10000 + 0x8000, 0x0, 0x4000, 16384, 64));
  EXPECT_EQ(same.kinds, kReadReadConflict);
  EXPECT_DOUBLE_EQ(same.beatsPerRepeat, 2.0);
  const UbBankConflicts apart =
      ubBankConflicts(g, vectorRecord(0x10000 + 0x8000, 0x0, 0x4000 + 256, 16384, 64));
  EXPECT_EQ(apart.kinds, 0);
  EXPECT_DOUBLE_EQ(apart.beatsPerRepeat, 1.0);
}

// A vector-bound launch of one block: `tiles` fp16 Muls of 8192 elements, src1 at src1Off.
kwb_sim::LaunchTrace mulLaunch(std::uint32_t src1Off, int tiles) {
  test::TraceBuilder t("mul", "Ascend910B1");
  for (int i = 0; i < tiles; ++i) t.vec(0, "Mul", 8192, 0x20000, 0x0, src1Off, true, 30);
  return t.trace();
}

TEST(CostModelBankConflict, ConflictingPlacementIsSlowerByOneCyclePerRepeat) {
  const SocParams soc = loadSocByName("Ascend910B1", socDir());
  constexpr int kTiles = 16;
  constexpr double kRepeats = 8192.0 * 2 / 256;
  const Profile clean = simulate(soc, mulLaunch(0x4000 + 256, kTiles));
  const Profile conflicting = simulate(soc, mulLaunch(0x4000, kTiles));
  const double vClean = clean.pipes[static_cast<size_t>(Pipe::V)].busyCycles;
  const double vConflict = conflicting.pipes[static_cast<size_t>(Pipe::V)].busyCycles;
  // Mul fp16 runs a repeat per cycle; a read-read conflict makes it two (the guide's one row per bank
  // group per cycle).
  EXPECT_DOUBLE_EQ(vConflict - vClean, kRepeats * kTiles);
  EXPECT_DOUBLE_EQ(conflicting.bankConflictCycles, kRepeats * kTiles);
  EXPECT_DOUBLE_EQ(clean.bankConflictCycles, 0.0);
  EXPECT_GT(conflicting.totalUs, clean.totalUs);
  // The roofline floor is the conflict-free rate: a better placement can reach it.
  EXPECT_DOUBLE_EQ(conflicting.floorVectorUs, clean.floorVectorUs);
}

TEST(CostModelBankConflict, SlowOpsHideTheConflictBehindTheirComputation) {
  const SocParams soc = loadSocByName("Ascend910B1", socDir());
  // Div fp16 computes 32 elements a cycle, 4 cycles a repeat: two reads per group fit in that time.
  test::TraceBuilder t("div", "Ascend910B1");
  t.vec(0, "Div", 8192, 0x20000, 0x0, 0x4000, true, 30);
  const Profile p = simulate(soc, t.trace());
  EXPECT_DOUBLE_EQ(p.bankConflictCycles, 0.0);
  EXPECT_TRUE(p.hints.empty());
}

TEST(CostModelBankConflict, ProfileNamesTheConflictAsAHintOnItsLine) {
  const SocParams soc = loadSocByName("Ascend910B1", socDir());
  const Profile p = simulate(soc, mulLaunch(0x4000, 4));
  ASSERT_EQ(p.hints.size(), 1u);
  const PerfHint& h = p.hints.front();
  EXPECT_EQ(h.kind, "ub-bank-conflict");
  EXPECT_EQ(h.conflict, "read-read");
  EXPECT_EQ(h.api, "Mul");
  EXPECT_EQ(h.line, 30u);
  EXPECT_EQ(h.calls, 4u);
  EXPECT_GT(h.share, 0.4);
  EXPECT_NE(h.message.find("bank conflict (read-read) in Mul at add_custom.cpp:30"), std::string::npos);
  EXPECT_NE(h.message.find("not an error"), std::string::npos);
  const nlohmann::json j = profileToJson(p);
  ASSERT_EQ(j.at("hints").size(), 1u);
  EXPECT_EQ(j["hints"][0]["severity"], "hint");
  EXPECT_EQ(j["hints"][0]["kind"], "ub-bank-conflict");
  EXPECT_EQ(j["hints"][0]["code"], "add_custom.cpp:30");
  EXPECT_GT(j.at("ub_bank_conflict_cycles").get<double>(), 0);

  EXPECT_TRUE(simulate(soc, mulLaunch(0x4000 + 256, 4)).hints.empty());
}

TEST(CostModelBankConflict, MalformedBankSectionIsRejectedWithItsField) {
  std::ifstream in(socDir() / "Ascend910B1.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  nlohmann::json j = nlohmann::json::parse(text);
  j["vector"]["ub_banks"]["groups"]["value"] = 0;
  try {
    parseSocParams(j.dump(), "bad.json");
    FAIL() << "groups 0 accepted";
  } catch (const SocParamsError& e) {
    EXPECT_NE(std::string(e.what()).find("vector.ub_banks.groups"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kwb::sim
