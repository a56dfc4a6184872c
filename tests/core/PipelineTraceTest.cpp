// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "core/model/JsonReader.h"
#include "core/profile/PipelineTrace.h"

using namespace kwb;

TEST(PipelineTrace, ReadsLanesSlicesSourcesAndFlows) {
  PipelineTrace t = readChromeTraceFile(KWB_FIXTURES_DIR "/trace/small_trace.json");
  ASSERT_EQ(t.processes.size(), 2u);
  EXPECT_EQ(t.processes[0].name, "core 0 (block 0)");
  ASSERT_EQ(t.processes[0].lanes.size(), 2u);
  EXPECT_EQ(t.processes[0].lanes[0].name, "VECTOR");  // sorted by tid
  EXPECT_EQ(t.processes[0].lanes[1].name, "MTE2");
  EXPECT_EQ(t.processes[0].lanes[1].slices.size(), 2u);
  EXPECT_EQ(t.processes[0].lanes[1].slices[0].source, "kernel.cpp:44");
  EXPECT_EQ(t.processes[0].lanes[1].slices[0].detail, "bytes=4096");
  EXPECT_EQ(t.processes[0].lanes[0].slices[0].source, "kernel.cpp:53");
  EXPECT_EQ(t.processes[1].name, "process 1");
  EXPECT_EQ(t.processes[1].lanes[0].name, "lane 3");
  ASSERT_EQ(t.flows.size(), 1u);
  EXPECT_EQ(t.flows[0].fromTid, 3);
  EXPECT_EQ(t.flows[0].toTid, 1);
  EXPECT_DOUBLE_EQ(t.beginUs, 0.0);
  EXPECT_DOUBLE_EQ(t.endUs, 3.0);
  EXPECT_EQ(t.sliceCount(), 4u);
}

TEST(PipelineTrace, ArrayFormIsAccepted) {
  auto t = parseChromeTrace(R"([{"ph":"X","name":"Exp","pid":2,"tid":1,"ts":5,"dur":1}])", "mem");
  ASSERT_EQ(t.processes.size(), 1u);
  EXPECT_EQ(t.processes[0].lanes[0].slices[0].name, "Exp");
}

TEST(PipelineTrace, MalformedEventNamesThePointer) {
  try {
    parseChromeTrace(
        R"({"traceEvents":[{"ph":"X","name":"A","ts":1,"dur":1},{"ph":"X","name":"B","ts":"soon"}]})",
        "trace.json");
    FAIL() << "expected LoadError";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.pointer(), "/traceEvents/1/ts");
    EXPECT_NE(std::string(e.what()).find("trace.json"), std::string::npos);
  }
  EXPECT_THROW(parseChromeTrace("{\"x\":1}", "t"), LoadError);
  EXPECT_THROW(parseChromeTrace("[1,", "t"), LoadError);
}
