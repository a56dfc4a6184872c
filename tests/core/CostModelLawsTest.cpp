// SPDX-License-Identifier: MIT
// Sanity laws of the emulator cost model: the estimate must move the way hardware does when tiling,
// buffering, parallelism and synchronisation change (issue 4).

#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "core/emulator/costmodel/CostModel.h"
#include "tests/core/CostModelTraceBuilder.h"

using namespace kwb::sim;
using namespace kwb::sim::test;

namespace {

const SocParams& soc910b1() {
  static const SocParams p =
      loadSocByName("Ascend910B1", std::filesystem::path(KWB_SOURCE_DIR) / "resources/soc");
  return p;
}

Profile run(const ElementwiseKernel& k, const SocParams& soc = soc910b1(), SimOptions opt = {}) {
  return simulate(soc, buildElementwise(k), opt);
}

size_t pipe(Pipe p) {
  return static_cast<size_t>(p);
}

// True when some record on pipe a runs while a record on pipe b runs, within one block.
bool overlaps(const Profile& p, const kwb_sim::LaunchTrace& t, Pipe a, Pipe b) {
  for (size_t blk = 0; blk < t.blocks.size(); ++blk) {
    const auto& in = t.blocks[blk].instrs;
    const InstrTiming* tm = p.timings.data() + p.blockOffset[blk];
    std::vector<InstrTiming> as, bs;
    for (size_t k = 0; k < in.size(); ++k) {
      if (in[k].sync != SyncKind::None || tm[k].end <= tm[k].start) continue;
      if (in[k].pipe == a) as.push_back(tm[k]);
      if (in[k].pipe == b) bs.push_back(tm[k]);
    }
    for (const auto& x : as)
      for (const auto& y : bs)
        if (x.start < y.end && y.start < x.end) return true;
  }
  return false;
}

}  // namespace

TEST(CostModelLaws, DoubleBufferingBeatsSingleOnMemoryBoundKernel) {
  ElementwiseKernel k;
  k.bufferNum = 1;
  const auto singleTrace = buildElementwise(k);
  const Profile single = simulate(soc910b1(), singleTrace);
  k.bufferNum = 2;
  const auto doubleTrace = buildElementwise(k);
  const Profile dbl = simulate(soc910b1(), doubleTrace);

  EXPECT_EQ(single.bound, "memory");
  EXPECT_EQ(dbl.bound, "memory");
  EXPECT_LT(dbl.totalCycles, single.totalCycles * 0.9)
      << "double " << dbl.totalCycles << " single " << single.totalCycles;
  // The mechanism, not just the number: MTE2 of the next tile runs under V of this one only with two buffers.
  EXPECT_TRUE(overlaps(dbl, doubleTrace, Pipe::MTE2, Pipe::V));
  EXPECT_FALSE(overlaps(single, singleTrace, Pipe::MTE2, Pipe::V));
  // Same work either way.
  EXPECT_EQ(single.gmToUbBytes, dbl.gmToUbBytes);
  EXPECT_EQ(single.ubToGmBytes, dbl.ubToGmBytes);
  EXPECT_GT(dbl.pipes[pipe(Pipe::MTE2)].ratio, single.pipes[pipe(Pipe::MTE2)].ratio);
}

TEST(CostModelLaws, AtFullChipBothBufferingsMeetTheBandwidthFloor) {
  // 48 cores streaming saturate GM: the gaps single buffering leaves on one core are filled by the
  // other cores' transfers, so both reach the bandwidth floor and double buffering is never slower.
  ElementwiseKernel k;
  k.blocks = 48;
  k.totalElements = 48ull * 65536;
  k.tile = 4096;
  k.bufferNum = 1;
  const Profile single = run(k);
  k.bufferNum = 2;
  const Profile dbl = run(k);
  EXPECT_LE(dbl.totalCycles, single.totalCycles * 1.005);
  for (const Profile* p : {&single, &dbl}) {
    EXPECT_GT(p->gmShareBytesPerCycle, 0.0);
    EXPECT_LT(p->kernelCycles / p->clockMhz, p->floorMemoryUs * 1.1);
  }
}

TEST(CostModelLaws, LargerTileWithSameWorkLowersInstructionOverhead) {
  ElementwiseKernel k;
  k.tile = 2048;
  const Profile small = run(k);
  k.tile = 4096;
  const Profile large = run(k);
  EXPECT_LT(large.totalCycles, small.totalCycles);
  EXPECT_LT(large.pipes[pipe(Pipe::S)].busyCycles, small.pipes[pipe(Pipe::S)].busyCycles);
  EXPECT_LT(large.pipes[pipe(Pipe::MTE2)].busyCycles, small.pipes[pipe(Pipe::MTE2)].busyCycles);
  EXPECT_EQ(large.gmToUbBytes, small.gmToUbBytes);
  size_t smallRecords = 0, largeRecords = 0;
  for (const auto& b : small.blocks) smallRecords += b.records;
  for (const auto& b : large.blocks) largeRecords += b.records;
  EXPECT_EQ(smallRecords, 2 * largeRecords);
}

TEST(CostModelLaws, ExpCostsTheTableRatioMoreThanAdd) {
  for (DType dt : {DType::F16, DType::F32}) {
    double vecBusy[2] = {};
    int i = 0;
    for (const char* op : {"Add", "Exp"}) {
      TraceBuilder tb;
      // Sources 256 B apart in bank groups: the conflict-free rate the table gives.
      for (int r = 0; r < 10; ++r)
        tb.vec(0, op, 8192, 0, 65536, 131072 + 256, std::string(op) == "Add", 10, dt);
      vecBusy[i++] = simulate(soc910b1(), tb.trace()).pipes[pipe(Pipe::V)].busyCycles;
    }
    const SocParams& s = soc910b1();
    const unsigned size = kwb_sim::dtypeSize(dt);
    const double ratio = s.vectorElementsPerCycle(s.vectorOpClass.at("Add"), size) /
                         s.vectorElementsPerCycle(s.vectorOpClass.at("Exp"), size);
    EXPECT_DOUBLE_EQ(ratio, dt == DType::F16 ? 4.0 : 2.0);  // docs/ascend-notes.md §2.3: 128 vs 32, 64 vs 32
    const double head = 10 * s.vectorHeadCycles;
    EXPECT_NEAR((vecBusy[1] - head) / (vecBusy[0] - head), ratio, 1e-9) << kwb_sim::dtypeName(dt);
  }
}

TEST(CostModelLaws, FewerBlocksThanCoresOnALargeTensorIsSlower) {
  ElementwiseKernel k;
  k.totalElements = 48ull * 8 * 16384;
  k.tile = 4096;
  k.blocks = 8;
  const Profile eight = run(k);
  k.blocks = 48;
  const Profile full = run(k);
  EXPECT_EQ(eight.coresUsed, 8);
  EXPECT_EQ(full.coresUsed, 48);
  EXPECT_LT(full.totalCycles * 2, eight.totalCycles);
  EXPECT_GT(full.achievedGbps, eight.achievedGbps);
}

TEST(CostModelLaws, NeverBeatsTheRooflineFloor) {
  for (const char* socName : {"Ascend910B1", "Ascend910B4", "Ascend310P3"}) {
    const SocParams soc = loadSocByName(socName, std::filesystem::path(KWB_SOURCE_DIR) / "resources/soc");
    for (int blocks : {1, 8, 48, 96})
      for (std::uint32_t tile : {512u, 4096u})
        for (int buffers : {1, 2})
          for (const char* op : {"Add", "Exp"}) {
            ElementwiseKernel k;
            k.blocks = blocks;
            k.totalElements = static_cast<std::uint64_t>(blocks) * 8192;
            k.tile = tile;
            k.bufferNum = buffers;
            k.op = op;
            const Profile p = run(k, soc);
            SCOPED_TRACE(std::string(socName) + " blocks=" + std::to_string(blocks) +
                         " tile=" + std::to_string(tile) + " buf=" + std::to_string(buffers) + " " + op);
            EXPECT_GT(p.floorUs, 0);
            EXPECT_GE(p.totalUs, p.floorUs);
            EXPECT_GE(p.kernelCycles / p.clockMhz, p.floorUs * (1 - 1e-12));
            // Achieved HBM bandwidth never exceeds the chip's aggregate (L2-resident bytes weigh by the
            // HBM/L2 bandwidth ratio: gmEquivalentBytes, docs/calibration.md).
            const double kernelBw = p.gmEquivalentBytes / p.kernelCycles;
            EXPECT_LE(kernelBw, soc.gmAggregateBytesPerCycle * (1 + 1e-9));
          }
  }
}

TEST(CostModelLaws, DeterministicRunToRun) {
  ElementwiseKernel k;
  k.blocks = 48;
  k.totalElements = 48ull * 16384;
  const auto trace = buildElementwise(k);
  std::string out[2];
  for (auto& o : out) {
    const Profile p = simulate(soc910b1(), trace);
    std::ostringstream os;
    writeProfileJson(p, os);
    writeChromeTrace(p, trace, os);
    writePipeUtilizationCsv(p, os);
    writeHotspotCsv(p, os);
    o = os.str();
  }
  EXPECT_EQ(out[0], out[1]);
}

TEST(CostModelLaws, MoreBlocksThanCoresRunInWaves) {
  ElementwiseKernel k;
  k.op = "Exp";  // vector-bound, so the second wave cannot hide in shared bandwidth
  k.dtype = DType::F32;
  k.blocks = 48;
  k.totalElements = 48ull * 16384;
  const Profile one = run(k);
  k.blocks = 96;
  k.totalElements = 96ull * 16384;
  const Profile two = run(k);
  EXPECT_EQ(one.waves, 1);
  EXPECT_EQ(two.waves, 2);
  EXPECT_EQ(two.coresUsed, 48);
  ASSERT_EQ(two.blocks.size(), 96u);
  // Block 48 reuses core 0 after block 0 has finished.
  EXPECT_EQ(two.blocks[48].core, two.blocks[0].core);
  EXPECT_GE(two.blocks[48].startCycle, two.blocks[0].cycles);
  EXPECT_NEAR(two.kernelCycles / one.kernelCycles, 2.0, 0.25);
}

TEST(CostModelLaws, SharedGmBandwidthCapsTheChipNotOneCore) {
  ElementwiseKernel k;
  k.blocks = 1;
  k.totalElements = 65536;
  const Profile one = run(k);
  k.blocks = 48;
  k.totalElements = 48ull * 65536;
  const Profile all = run(k);
  const SocParams& s = soc910b1();
  // One core moves data at no more than its own path bandwidth and is far from the chip limit.
  const double oneBw = (one.gmReadBytes + one.gmWriteBytes) / one.kernelCycles;
  EXPECT_LT(oneBw, s.paths[static_cast<size_t>(Path::GmToUb)].bytesPerCycle +
                       s.paths[static_cast<size_t>(Path::UbToGm)].bytesPerCycle);
  EXPECT_DOUBLE_EQ(one.gmShareBytesPerCycle, 0.0);
  // 48 cores would exceed the aggregate at full path speed, so transfers share it.
  EXPECT_GT(all.gmShareBytesPerCycle, 0.0);
  const double allBw = all.gmEquivalentBytes / all.kernelCycles;  // HBM-equivalent (L2 hits weigh less)
  EXPECT_LE(allBw, s.gmAggregateBytesPerCycle * (1 + 1e-9));
  EXPECT_GT(allBw, s.gmAggregateBytesPerCycle * 0.7);
  EXPECT_GT(all.kernelCycles, one.kernelCycles);  // each core got less than its own path bandwidth
}

TEST(CostModelLaws, MisalignedGmCostsBandwidth) {
  ElementwiseKernel k;
  k.blocks = 1;
  k.totalElements = 65536;
  const Profile aligned = run(k);
  k.gmBase += 32;  // 32 B aligned only: ~70% bandwidth (docs/ascend-notes.md §1.3)
  const Profile shifted = run(k);
  // The data part of every copy (busy minus the fixed start cost) takes 1/0.7 as long.
  const SocParams& s = soc910b1();
  const double copies = 2.0 * 65536 / k.tile;
  // One burst each, paying its own cost only on the share that misses L2 (docs/calibration.md).
  const double start = copies * (s.paths[static_cast<size_t>(Path::GmToUb)].startCycles +
                                 s.gmBurstCycles * (1 - aligned.l2HitShare));
  const double ratio = (shifted.pipes[pipe(Pipe::MTE2)].busyCycles - start) /
                       (aligned.pipes[pipe(Pipe::MTE2)].busyCycles - start);
  EXPECT_NEAR(ratio, 1 / s.alignTiers[1].factor, 1e-9);
  EXPECT_DOUBLE_EQ(s.alignTiers[1].factor, 0.7);
  EXPECT_GT(shifted.totalCycles, aligned.totalCycles);
}

TEST(CostModelLaws, AutoSyncMakesScalarReadWaitForVector) {
  // ReduceSum then GetValue of its result with no V_S flag: valid under --cce-auto-sync (docs/ascend-notes.md
  // §3.5).
  TraceBuilder tb;
  tb.vec(0, "ReduceSum", 16384, 0, 4096, 0, false, 20, DType::F32);
  tb.scalar(0, "GetValue", MemSpace::UB, 0, 0, false, 21);
  const auto& t = tb.trace();
  const Profile on = simulate(soc910b1(), t);
  SimOptions off;
  off.autoSync = false;
  const Profile offP = simulate(soc910b1(), t, off);
  const double vEnd = on.timings[0].end;
  EXPECT_GE(on.timings[1].start, vEnd);
  EXPECT_LT(offP.timings[1].start, offP.timings[0].end);
  EXPECT_GT(on.blocks[0].wait[pipe(Pipe::S)], 0);
}

TEST(CostModelLaws, SetFlagWaitFlagOrdersPipes) {
  // Static tensors without queues: MTE2 -> V must be ordered by an explicit flag pair.
  auto build = [](bool withFlags) {
    TraceBuilder tb;
    tb.copyIn(0, 0x100000000ull, 0, 16384, 30);
    if (withFlags) tb.flag(0, SyncKind::SetFlag, Pipe::MTE2, Pipe::V, 0, 31);
    if (withFlags) tb.flag(0, SyncKind::WaitFlag, Pipe::MTE2, Pipe::V, 0, 32);
    tb.vec(0, "Abs", 8192, 16384, 0, 0, false, 33);
    return tb.trace();
  };
  const auto withT = build(true), withoutT = build(false);
  const Profile with = simulate(soc910b1(), withT);
  const Profile without = simulate(soc910b1(), withoutT);
  const double copyEnd = with.timings[0].end;
  EXPECT_GE(with.timings[3].start, copyEnd);                    // Abs after the copy and its latency
  EXPECT_LT(without.timings[1].start, without.timings[0].end);  // the race the emulator flags
  ASSERT_EQ(with.flows.size(), 1u);
  EXPECT_EQ(with.flows[0].from, 1u);
  EXPECT_EQ(with.flows[0].to, 2u);
}

TEST(CostModelLaws, PipeBarrierAllDrainsEveryPipe) {
  TraceBuilder tb;
  tb.copyIn(0, 0x100000000ull, 0, 32768, 30);
  tb.barrier(0, Pipe::All, 31);
  tb.vec(0, "Abs", 64, 40960, 32768, 0, false, 32);
  const Profile p = simulate(soc910b1(), tb.trace());
  EXPECT_GE(p.timings[2].start, p.timings[0].end);
}

TEST(CostModelLaws, ProfileHasTheReportKeys) {
  const Profile p = run(ElementwiseKernel{});
  const auto j = profileToJson(p);
  for (const char* key : {"soc", "total_cycles", "total_us", "blocks", "pipes", "gm_to_ub_bytes",
                          "ub_to_gm_bytes", "achieved_gbps", "bound", "floor_us", "lines", "model"})
    EXPECT_TRUE(j.contains(key)) << key;
  for (const char* pn : {"S", "V", "MTE2", "MTE3"}) {
    ASSERT_TRUE(j["pipes"].contains(pn)) << pn;
    EXPECT_TRUE(j["pipes"][pn].contains("busy_cycles"));
    EXPECT_TRUE(j["pipes"][pn].contains("ratio"));
  }
  EXPECT_FALSE(j["pipes"].contains("M"));  // cube pipes only when used
  EXPECT_EQ(j["blocks"].size(), 8u);
  EXPECT_EQ(j["soc"], "Ascend910B1");
  EXPECT_NE(j["model"].get<std::string>().find("not a device measurement"), std::string::npos);
  // Source attribution: the DataCopy lines of CopyIn dominate a memory-bound add.
  ASSERT_FALSE(p.lines.empty());
  EXPECT_EQ(p.lines[0].api, "DataCopy");
  EXPECT_EQ(p.lines[0].file, "add_custom.cpp");
}

TEST(CostModelLaws, FoldedGmScalarReadsMissOncePerDCacheLine) {
  // A scalar loop reading 64 consecutive floats from GM, folded by the runtime into one record.
  TraceBuilder tb;
  tb.scalar(0, "GetValue", MemSpace::GM, 0, 0x100000000ull, false, 20, 64);
  tb.scalar(0, "GetValue", MemSpace::GM, 0, 0x100000000ull, false, 21, 64);  // same lines again: all hits
  const SocParams& s = soc910b1();
  const Profile p = simulate(s, tb.trace());
  const double first = p.timings[0].end - p.timings[0].start;
  const double second = p.timings[1].end - p.timings[1].start;
  const double lines = 64.0 * 4 / static_cast<double>(s.dcacheLineBytes);
  EXPECT_DOUBLE_EQ(first, lines * s.gmGetValueMissCycles + (64 - lines) * s.gmGetValueHitCycles);
  EXPECT_DOUBLE_EQ(second, 64 * s.gmGetValueHitCycles);
}
