// SPDX-License-Identifier: MIT
// msprof op / msprof op simulator outputs. The fixtures are SYNTHESIZED from the documented column lists
// (no NPU here), see tests/fixtures/msprof/README.md.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/diag/Csv.h"
#include "core/diag/MsprofParser.h"
#include "core/diag/MsprofTrace.h"

using namespace kwb;

namespace {

std::string readFixture(const std::string& name) {
  const std::string path = std::string(KWB_FIXTURES_DIR) + "/msprof/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The message of the MsprofParseError f throws ("" when it does not throw).
template <typename F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const MsprofParseError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(MsprofParser, OpBasicInfo) {
  const auto rows = parseOpBasicInfo(readFixture("synth_a2_add_custom/OpBasicInfo.csv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].opName, "add_custom");
  EXPECT_EQ(rows[0].opType, "vector");
  EXPECT_DOUBLE_EQ(rows[0].taskDurationUs, 12.46);
  EXPECT_EQ(rows[0].blockDim, 4);
  EXPECT_FALSE(rows[0].mixBlockDim);  // N/A: not a mixed kernel
  EXPECT_EQ(rows[0].deviceId, 0);
  EXPECT_EQ(rows[0].pid, 31415);
  EXPECT_EQ(rows[0].currentFreqMHz, 1800.0);
  EXPECT_EQ(rows[0].ratedFreqMHz, 1800.0);
}

TEST(MsprofParser, OpBasicInfoWithBomCrlfQuotesAndMissingOptionalColumns) {
  const auto rows = parseOpBasicInfo(readFixture("synth_edge_cases/OpBasicInfo_bom_crlf_quoted.csv"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].opName, "matmul_leakyrelu, \"mix\" build");
  EXPECT_DOUBLE_EQ(rows[0].taskDurationUs, 1024.5);
  EXPECT_EQ(rows[0].blockDim, 20);
  EXPECT_EQ(rows[0].mixBlockDim, 40);
  EXPECT_FALSE(rows[0].deviceId);  // no such column
  EXPECT_FALSE(rows[0].pid);
  EXPECT_EQ(rows[1].opName, "add_custom");
  EXPECT_DOUBLE_EQ(rows[1].taskDurationUs, 7.25);
  EXPECT_FALSE(rows[1].mixBlockDim);
}

TEST(MsprofParser, MissingRequiredColumnNamesFileAndColumn) {
  const auto msg = errorOf([] {
    parseOpBasicInfo(readFixture("synth_edge_cases/OpBasicInfo_no_duration.csv"), "OPPROF_1/OpBasicInfo.csv");
  });
  EXPECT_NE(msg.find("OPPROF_1/OpBasicInfo.csv"), std::string::npos) << msg;
  EXPECT_NE(msg.find("missing required column 'Task Duration(us)'"), std::string::npos) << msg;

  const auto pipe =
      errorOf([] { parsePipeUtilization(readFixture("synth_edge_cases/PipeUtilization_no_block_id.csv")); });
  EXPECT_NE(pipe.find("PipeUtilization.csv: missing required column 'block_id'"), std::string::npos) << pipe;

  const auto quote = errorOf([] {
    parseSimulatorCodeExe(readFixture("synth_edge_cases/code_exe_unterminated_quote.csv"),
                          "core0_code_exe.csv");
  });
  EXPECT_NE(quote.find("core0_code_exe.csv:2: unterminated quoted field"), std::string::npos) << quote;

  const auto bad = errorOf([] { parseOpBasicInfo("Op Name,Task Duration(us),Block Dim\nk,fast,8\n"); });
  EXPECT_NE(bad.find("OpBasicInfo.csv:2: column 'Task Duration(us)' holds 'fast', expected a number"),
            std::string::npos)
      << bad;
  EXPECT_NE(errorOf([] { parseMemory(""); }).find("Memory.csv: empty file"), std::string::npos);
}

TEST(MsprofParser, PipeUtilizationA2) {
  const auto rows = parsePipeUtilization(readFixture("synth_a2_add_custom/PipeUtilization.csv"));
  ASSERT_EQ(rows.size(), 4u);
  const auto& b0 = rows[0];
  EXPECT_EQ(b0.blockId, 0);
  EXPECT_EQ(b0.subBlock, "0");
  EXPECT_FALSE(b0.aicTimeUs);  // N/A on a vector-only kernel
  EXPECT_EQ(b0.aivTimeUs, 10.0);
  EXPECT_EQ(b0.aivTotalCycles, 18000.0);
  // Only the pipes with data: aiv vec, scalar, mte2, mte3 (every aic_* column is N/A).
  ASSERT_EQ(b0.pipes.size(), 4u);
  EXPECT_EQ(b0.pipes[0].core, "aiv");
  EXPECT_EQ(b0.pipes[0].pipe, "vec");
  const MsprofPipeTime* mte2 = b0.pipe("aiv", "mte2");
  ASSERT_NE(mte2, nullptr);
  EXPECT_EQ(mte2->timeUs, 6.2);
  EXPECT_EQ(mte2->ratio, 0.62);
  EXPECT_EQ(b0.pipe("aic", "cube"), nullptr);
  // Stall and bandwidth columns are not pipes but are kept.
  EXPECT_EQ(b0.value("aiv_scalar_mte2_stall_time(us)"), 0.4);
  EXPECT_EQ(b0.value("aiv_mte2_active_bw(GB/s)"), 85.3);
  EXPECT_FALSE(b0.value("aic_cube_ratio"));
  EXPECT_EQ(rows[3].blockId, 3);
  EXPECT_EQ(rows[3].pipe("aiv", "mte2")->ratio, 0.6695);

  const auto busiest = busiestPipe(rows);
  ASSERT_TRUE(busiest);
  EXPECT_EQ(busiest->core, "aiv");
  EXPECT_EQ(busiest->pipe, "mte2");
  EXPECT_NEAR(busiest->meanRatio, (0.62 + 0.6275 + 0.6162 + 0.6695) / 4, 1e-12);
}

TEST(MsprofParser, PipeUtilization310PrefixFreeNames) {
  const auto rows = parsePipeUtilization(readFixture("synth_310p_add_custom/PipeUtilization.csv"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].blockId, 1);
  EXPECT_TRUE(rows[1].subBlock.empty());
  EXPECT_EQ(rows[1].aicTimeUs, 14.6);  // aicore_time(us)
  EXPECT_EQ(rows[1].aicTotalCycles, 14600.0);
  ASSERT_EQ(rows[1].pipes.size(), 6u);  // vec, mac, scalar, mte1, mte2, mte3
  const MsprofPipeTime* vec = rows[1].pipe("", "vec");
  ASSERT_NE(vec, nullptr);
  EXPECT_EQ(vec->ratio, 0.2055);
  EXPECT_EQ(rows[1].pipe("", "mac")->ratio, 0.0);  // zero is a value, not missing
  EXPECT_EQ(rows[1].value("memory_bound"), 3.033);
  EXPECT_EQ(busiestPipe(rows)->pipe, "mte2");
  EXPECT_FALSE(busiestPipe({}));
}

TEST(MsprofParser, MemoryA2) {
  const auto rows = parseMemory(readFixture("synth_a2_add_custom/Memory.csv"));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[2].blockId, 2);
  EXPECT_EQ(rows[2].gmToUbBandwidthGBs, 1.65);
  EXPECT_EQ(rows[2].ubToGmBandwidthGBs, 0.83);
  EXPECT_EQ(rows[2].gmToUbKB, 16.0);
  EXPECT_EQ(rows[2].ubToGmKB, 8.0);
  EXPECT_EQ(rows[2].mainMemReadKB, 16.0);
  EXPECT_EQ(rows[2].value("GM_to_UB_bw_usage_rate(%)"), 2.9);
  EXPECT_FALSE(rows[2].value("aic_l1_read_bw(GB/s)"));

  // 310P spells the bandwidths with aic_ (Atlas inference products).
  const auto p310 =
      parseMemory("block_id,aic_gm_to_ub_bw(GB/s),aic_ub_to_gm_bw(GB/s),core_kind\n0,3.5,1.75,aicore\n");
  ASSERT_EQ(p310.size(), 1u);
  EXPECT_EQ(p310[0].gmToUbBandwidthGBs, 3.5);
  EXPECT_EQ(p310[0].ubToGmBandwidthGBs, 1.75);
  EXPECT_EQ(p310[0].labels.at("core_kind"), "aicore");
}

TEST(MsprofParser, SimulatorCodeExeAndHotSpots) {
  const auto core0 = parseSimulatorCodeExe(readFixture("synth_simulator/core0.veccore0/core0_code_exe.csv"),
                                           "core0_code_exe.csv");
  const auto core1 = parseSimulatorCodeExe(readFixture("synth_simulator/core1.veccore0/core1_code_exe.csv"),
                                           "core1_code_exe.csv");
  ASSERT_EQ(core0.size(), 4u);
  EXPECT_EQ(core0[0].file, "/home/dev/add_custom/add_custom.cpp");
  EXPECT_EQ(core0[0].line, 38);
  EXPECT_EQ(core0[0].callCount, 4);
  EXPECT_EQ(core0[0].cycles, 5120);
  EXPECT_EQ(core0[0].runningTimeUs, 2.84);

  const auto merged = mergeSourceLineCosts({core0, core1});
  ASSERT_EQ(merged.size(), 4u);
  EXPECT_EQ(merged[0].line, 38);
  EXPECT_EQ(merged[0].cycles, 5120 + 5248);
  EXPECT_EQ(merged[0].callCount, 8);
  EXPECT_NEAR(*merged[0].runningTimeUs, 2.84 + 2.92, 1e-12);
  EXPECT_EQ(merged[1].line, 52);
  EXPECT_EQ(merged[2].line, 45);
  EXPECT_EQ(merged[3].line, 210);
  EXPECT_EQ(merged[3].cycles, 1920);

  // Rows without a running time make the merged time unknown rather than wrong.
  const auto noTime = parseSimulatorCodeExe("code,cycles\nk.cpp:3,10\n", "x.csv");
  const auto mixed = mergeSourceLineCosts(
      {noTime, parseSimulatorCodeExe("code,cycles,running_time(us)\nk.cpp:3,5,1.0\n", "y.csv")});
  ASSERT_EQ(mixed.size(), 1u);
  EXPECT_EQ(mixed[0].cycles, 15);
  EXPECT_FALSE(mixed[0].runningTimeUs);
  // A code cell without a line number keeps the whole text as the file.
  const auto noLine = parseSimulatorCodeExe("code,cycles\n??,7\n", "z.csv");
  EXPECT_EQ(noLine[0].file, "??");
  EXPECT_EQ(noLine[0].line, 0);
}

TEST(MsprofParser, SimulatorInstrExe) {
  const auto rows = parseSimulatorInstrExe(readFixture("synth_simulator/core0.veccore0/core0_instr_exe.csv"),
                                           "core0_instr_exe.csv");
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[1].instr, "VADD");
  EXPECT_EQ(rows[1].addr, "0x1fa8");
  EXPECT_EQ(rows[1].pipe, "VECTOR");
  EXPECT_EQ(rows[1].callCount, 4);
  EXPECT_EQ(rows[1].cycles, 2304);
  EXPECT_EQ(rows[1].detail, "repeat:64, dstBlkStride:1, src0BlkStride:1");  // quoted commas stay in the field
  EXPECT_EQ(rows[4].instr, "WAIT_FLAG");
  EXPECT_EQ(rows[4].cycles, 948);
}

TEST(MsprofParser, SimulatorCoreDirNames) {
  auto d = parseSimulatorCoreDir("core3.veccore1");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->core, 3);
  EXPECT_EQ(d->unit, "veccore");
  EXPECT_EQ(d->index, 1);
  d = parseSimulatorCoreDir("core12.cubecore0");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->core, 12);
  EXPECT_EQ(d->unit, "cubecore");
  EXPECT_FALSE(parseSimulatorCoreDir("core.veccore1"));
  EXPECT_FALSE(parseSimulatorCoreDir("core1.veccore"));
  EXPECT_FALSE(parseSimulatorCoreDir("trace.json"));
}

TEST(MsprofTrace, EventsLanesAndBusyTime) {
  const auto trace = parseSimulatorTrace(readFixture("synth_simulator/trace.json"));
  EXPECT_EQ(trace.processNames.at("0"), "core0.veccore0");
  EXPECT_EQ(trace.threadNames.at({"0", "3"}), "VECTOR");
  ASSERT_EQ(trace.events.size(), 12u);  // metadata excluded
  const auto& first = trace.events[0];
  EXPECT_EQ(first.name, "MOV_OUT_TO_UB");
  EXPECT_EQ(first.phase, "X");
  EXPECT_EQ(trace.laneOf(first), "MTE2");
  EXPECT_EQ(trace.processOf(first), "core0.veccore0");
  EXPECT_EQ(first.code, "/home/dev/add_custom/add_custom.cpp:38");
  EXPECT_EQ(first.pcAddr, "0x1f40");
  EXPECT_DOUBLE_EQ(first.durUs, 0.57);

  const auto lanes = simulatorLaneBusy(trace);
  ASSERT_EQ(lanes.size(), 5u);
  // Sorted by process then lane: core0 MTE2, MTE3, SCALAR, VECTOR; core1 MTE2.
  EXPECT_EQ(lanes[0].lane, "MTE2");
  EXPECT_NEAR(lanes[0].busyUs, 1.14, 1e-9);
  EXPECT_EQ(lanes[0].events, 2u);
  EXPECT_EQ(lanes[3].lane, "VECTOR");
  EXPECT_NEAR(lanes[3].busyUs, 0.52, 1e-9);  // two VADDs overlap by 0.12us: counted once
  EXPECT_NEAR(lanes[3].firstUs, 1.20, 1e-9);
  EXPECT_NEAR(lanes[3].lastUs, 1.72, 1e-9);
  EXPECT_EQ(lanes[4].process, "core1.veccore0");
}

TEST(MsprofTrace, FlowsShowAnUnpairedSetFlag) {
  const auto trace = parseSimulatorTrace(readFixture("synth_simulator/trace.json"));
  const auto flows = simulatorFlows(trace);
  ASSERT_EQ(flows.size(), 3u);
  EXPECT_TRUE(flows[0].paired());
  EXPECT_EQ(trace.events[*flows[0].start].name, "SET_FLAG");
  EXPECT_EQ(trace.events[*flows[0].finish].name, "WAIT_FLAG");
  EXPECT_EQ(flows[1].id, "2");
  EXPECT_TRUE(flows[1].paired());
  EXPECT_EQ(flows[2].id, "3");
  EXPECT_FALSE(flows[2].paired());
  EXPECT_FALSE(flows[2].finish);
}

TEST(MsprofTrace, AcceptsBareArraysAndRejectsBrokenFiles) {
  const auto trace =
      parseSimulatorTrace(R"([{"name":"VADD","ph":"X","ts":"1.5","dur":2,"pid":"p","tid":"VECTOR"}])");
  ASSERT_EQ(trace.events.size(), 1u);
  EXPECT_EQ(trace.laneOf(trace.events[0]), "VECTOR");  // no metadata: the tid is the lane
  EXPECT_DOUBLE_EQ(trace.events[0].tsUs, 1.5);

  auto msg = errorOf(
      [] { parseSimulatorTrace(R"({"traceEvents": [{"name": "VADD", "ph": "X")", "core0/trace.json"); });
  EXPECT_NE(msg.find("core0/trace.json: invalid JSON"), std::string::npos) << msg;
  msg = errorOf([] { parseSimulatorTrace(R"({"events": []})"); });
  EXPECT_NE(msg.find("without \"traceEvents\""), std::string::npos) << msg;
  msg = errorOf([] { parseSimulatorTrace(R"([{"name":"VADD","ph":"X","ts":"soon"}])"); });
  EXPECT_NE(msg.find("event 0: 'ts' is not a number"), std::string::npos) << msg;
  msg = errorOf([] { parseSimulatorTrace(R"([{"name":"VADD"}])"); });
  EXPECT_NE(msg.find("event 0 has no \"ph\""), std::string::npos) << msg;
}

TEST(Csv, QuotingAndShapes) {
  const auto t = parseCsv("a, b ,c\n1,\"x,\"\"y\"\"\n z\",3\n\n4\n5,6,7,,\n", "t.csv");
  ASSERT_EQ(t.header, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0][1], "x,\"y\"\n z");
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"4", "", ""}));    // short row padded
  EXPECT_EQ(t.rows[2], (std::vector<std::string>{"5", "6", "7"}));  // trailing empty fields dropped
  EXPECT_EQ(t.rowLines, (std::vector<int>{2, 5, 6}));
  EXPECT_EQ(t.column("B"), 1u);
  EXPECT_FALSE(t.column("d"));
  EXPECT_THROW(parseCsv("a,b\n1,2,3\n", "x.csv"), CsvError);
  EXPECT_THROW(parseCsv("a,b\n\"1\"x,2\n", "x.csv"), CsvError);
  EXPECT_TRUE(isMissingCsvValue(" N/A "));
  EXPECT_TRUE(isMissingCsvValue(""));
  EXPECT_FALSE(isMissingCsvValue("0"));
}

TEST(MsprofParser, TruncatedFilesFailCleanlyOrParse) {
  // A profiler killed mid-write leaves truncated files: every cut either parses or throws MsprofParseError.
  const std::string root = std::string(KWB_FIXTURES_DIR) + "/msprof/";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() == ".md") continue;
    const std::string rel = entry.path().lexically_relative(root).string();
    const std::string name = entry.path().filename().string();
    const std::string text = readFixture(rel);
    for (std::size_t cut = 0; cut <= text.size(); cut += 11) {
      const std::string part = text.substr(0, cut);
      try {
        if (name == "trace.json")
          parseSimulatorTrace(part);
        else if (name.find("code_exe") != std::string::npos)
          parseSimulatorCodeExe(part, name);
        else if (name.find("instr_exe") != std::string::npos)
          parseSimulatorInstrExe(part, name);
        else if (name.find("OpBasicInfo") != std::string::npos)
          parseOpBasicInfo(part, name);
        else if (name.find("Memory") != std::string::npos)
          parseMemory(part, name);
        else
          parsePipeUtilization(part, name);
      } catch (const MsprofParseError& e) {
        EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_FALSE(parseSimulatorCoreDir("core99999999999999.veccore1"));
  EXPECT_FALSE(parseSimulatorCoreDir("core1.veccore99999999999999"));
}
