// SPDX-License-Identifier: MIT
// Golden tests of the cost-model writers (PipeUtilization.csv, OpBasicInfo.csv, the hot-spot CSV, the
// profile JSON and the Chrome trace) on a frozen test SoC, plus structural checks of the trace.
// Regenerate the goldens after an intended change with KWB_UPDATE_GOLDEN=1.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/emulator/costmodel/CostModel.h"
#include "tests/core/CostModelTraceBuilder.h"

using namespace kwb::sim;
using namespace kwb::sim::test;

namespace {

std::filesystem::path fixtures() {
  return std::filesystem::path(KWB_FIXTURES_DIR) / "costmodel";
}

const SocParams& testSoc() {
  static const SocParams s = loadSocParams(fixtures() / "TestSoc.json");
  return s;
}

// Two blocks of the double-buffered add (two tiles each) plus a scalar read of GM and a flag pair, so
// every record kind and every writer column is exercised.
kwb_sim::LaunchTrace goldenTrace() {
  ElementwiseKernel k;
  k.blocks = 2;
  k.totalElements = 2 * 2048;
  k.tile = 1024;
  k.bufferNum = 2;
  auto t = buildElementwise(k);
  TraceBuilder tb;
  tb.trace() = t;
  tb.scalar(0, "GetValue", MemSpace::GM, 0, 0x100000000ull, false, 70);
  tb.flag(0, SyncKind::SetFlag, Pipe::MTE3, Pipe::MTE2, 0, 71);
  tb.flag(0, SyncKind::WaitFlag, Pipe::MTE3, Pipe::MTE2, 0, 72);
  return tb.trace();
}

void checkGolden(const std::string& name, const std::string& actual) {
  const auto path = fixtures() / name;
  if (const char* u = std::getenv("KWB_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    GTEST_SKIP() << "updated " << path;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden " << path << " (run with KWB_UPDATE_GOLDEN=1)";
  std::ostringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(actual, expected.str()) << "golden " << name << " differs";
}

std::string render(const std::function<void(const Profile&, std::ostream&)>& w) {
  const Profile p = simulate(testSoc(), goldenTrace());
  std::ostringstream os;
  w(p, os);
  return os.str();
}

}  // namespace

TEST(CostModelWriters, PipeUtilizationCsvGolden) {
  const std::string csv = render(writePipeUtilizationCsv);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "block_id,sub_block_id,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_"
            "time(us),"
            "aiv_scalar_ratio,aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,"
            "aiv_mte2_active_bw(GB/s),aiv_mte3_active_bw(GB/s)");
  checkGolden("PipeUtilization.csv", csv);
}

TEST(CostModelWriters, OpBasicInfoCsvGolden) {
  const std::string csv = render(writeOpBasicInfoCsv);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device ID,PID,Current Freq,Rated "
            "Freq,Source");
  checkGolden("OpBasicInfo.csv", csv);
}

TEST(CostModelWriters, HotspotCsvGolden) {
  const std::string csv = render(writeHotspotCsv);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "code,call_count,cycles,running_time(us),wait_cycles,api");
  checkGolden("code_hotspot.csv", csv);
}

TEST(CostModelWriters, ProfileJsonGolden) {
  // soc_params is the absolute path of the parameter file; the golden must not depend on the checkout.
  auto j = nlohmann::json::parse(render(writeProfileJson));
  ASSERT_TRUE(j.contains("soc_params"));
  EXPECT_EQ(std::filesystem::path(j["soc_params"].get<std::string>()).filename(), "TestSoc.json");
  j["soc_params"] = "<fixtures>/costmodel/TestSoc.json";
  checkGolden("profile.json", j.dump(2) + "\n");
}

TEST(CostModelWriters, ChromeTraceGolden) {
  const auto trace = goldenTrace();
  const Profile p = simulate(testSoc(), trace);
  std::ostringstream os;
  writeChromeTrace(p, trace, os);
  checkGolden("trace.json", os.str());
}

TEST(CostModelWriters, ChromeTraceHasOneProcessPerCoreAndOneLanePerPipe) {
  ElementwiseKernel k;
  k.blocks = 6;  // 4 cores on the test SoC: two cores run two blocks
  k.totalElements = 6 * 4096;
  const auto trace = goldenTrace();
  const auto big = buildElementwise(k);
  for (const auto* t : {&trace, &big}) {
    const Profile p = simulate(testSoc(), *t);
    std::ostringstream os;
    writeChromeTrace(p, *t, os);
    const auto j = nlohmann::json::parse(os.str());  // throws (fails the test) on invalid JSON
    ASSERT_TRUE(j.contains("traceEvents"));
    std::map<int, std::map<int, std::string>> lanes;
    std::set<int> processes;
    size_t slices = 0, flowStarts = 0, flowEnds = 0;
    std::set<std::string> sliceNames;
    for (const auto& e : j["traceEvents"]) {
      const std::string ph = e["ph"];
      if (ph == "M" && e["name"] == "thread_name") lanes[e["pid"]][e["tid"]] = e["args"]["name"];
      if (ph == "M" && e["name"] == "process_name") processes.insert(e["pid"].get<int>());
      if (ph == "X") {
        ++slices;
        sliceNames.insert(e["name"].get<std::string>());
        EXPECT_TRUE(e["args"].contains("code"));
        EXPECT_GE(e["dur"].get<double>(), 0);
        EXPECT_TRUE(lanes[e["pid"]].count(e["tid"])) << "slice on an unnamed lane";
      }
      if (ph == "s") ++flowStarts;
      if (ph == "f") ++flowEnds;
    }
    size_t records = 0;
    for (const auto& b : t->blocks) records += b.instrs.size();
    EXPECT_EQ(slices, records);
    EXPECT_EQ(flowStarts, p.flows.size());
    EXPECT_EQ(flowEnds, p.flows.size());
    EXPECT_GT(p.flows.size(), 0u);
    EXPECT_EQ(processes.size(), static_cast<size_t>(p.coresUsed));
    for (const auto& [pid, l] : lanes) {
      EXPECT_EQ(l.at(0), "SCALAR");
      EXPECT_EQ(l.at(1), "VECTOR");
      EXPECT_EQ(l.at(3), "MTE2");
      EXPECT_EQ(l.at(4), "MTE3");
    }
    for (const char* api : {"DataCopy", "Add", "EnQue", "DeQue", "AllocTensor", "FreeTensor"})
      EXPECT_TRUE(sliceNames.count(api)) << api;
  }
}

TEST(CostModelWriters, CsvFieldsAreQuotedWhenNeeded) {
  TraceBuilder tb("odd,kernel");
  tb.vec(0, "Add", 128, 0, 256, 512, true, 5);
  tb.trace().strings[0] = "dir \"x\"/k,1.cpp";  // the file name
  const Profile p = simulate(testSoc(), tb.trace());
  std::ostringstream hot, info;
  writeHotspotCsv(p, hot);
  writeOpBasicInfoCsv(p, info);
  EXPECT_NE(hot.str().find("\"dir \"\"x\"\"/k,1.cpp:5\""), std::string::npos) << hot.str();
  EXPECT_NE(info.str().find("\"odd,kernel\""), std::string::npos) << info.str();
}

// Issue 4's budget: the model adds at most 30% to the emulator's wall time on Add over 16M halves with
// 48 blocks and double buffering (~50k records). This checks the model stays linear and cheap on that
// trace; the comparison against the emulator's own time lives in docs/emulator.md.
TEST(CostModelWriters, SixteenMegaHalfAddCostsMilliseconds) {
  ElementwiseKernel k;
  k.blocks = 48;
  k.totalElements = 16ull * 1024 * 1024;
  k.tile = 4096;  // 8 KB tiles, 6 buffers: 48 KB of UB, as the public add sample
  k.bufferNum = 2;
  const auto trace = buildElementwise(k);
  size_t records = 0;
  for (const auto& b : trace.blocks) records += b.instrs.size();
  const SocParams soc = loadSocByName("Ascend910B1", std::filesystem::path(KWB_SOURCE_DIR) / "resources/soc");
  simulate(soc, trace);  // warm
  const auto t0 = std::chrono::steady_clock::now();
  const Profile p = simulate(soc, trace);
  const auto json = profileToJson(p).dump();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  RecordProperty("records", static_cast<int>(records));
  RecordProperty("simulate_ms", std::to_string(ms));
  std::printf("[ perf     ] %zu records, %d sharing passes, simulate+profile JSON %.2f ms\n", records,
              p.passes, ms);
  EXPECT_GT(records, 10000u);
  EXPECT_LT(ms, 2000.0);  // generous for Debug builds on a loaded machine; Release is ~100x below
}
