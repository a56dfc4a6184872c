// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/emulator/costmodel/SocParams.h"
#include "core/model/ProfileReport.h"
#include "core/model/Task.h"
#include "core/verify/ProfileSummary.h"
#include "core/verify/Verification.h"

using namespace kwb;
using namespace kwb::verify;
using nlohmann::json;

namespace {

// The fields profileToJson (core/emulator/costmodel/ProfileWriters.cpp) writes that matter here.
json caseProfile(double totalUs, double floorUs, std::uint64_t cycles, std::uint64_t readBytes,
                 double vecRatio, const std::string& bound) {
  return {{"soc", "Ascend910B1"},
          {"kernel", "add_custom"},
          {"block_dim", 8},
          {"total_us", totalUs},
          {"total_cycles", cycles},
          {"kernel_cycles", cycles - 100},
          {"launch_overhead_cycles", 100},
          {"pipes",
           {{"vector", {{"busy_cycles", cycles / 2}, {"ratio", vecRatio}}},
            {"mte2", {{"busy_cycles", cycles / 4}, {"ratio", 0.25}}}}},
          {"blocks", json::array({{{"block", 0}, {"cycles", cycles}}})},
          {"gm_read_bytes", readBytes},
          {"gm_write_bytes", readBytes / 2},
          {"achieved_gbps", 1.0},
          {"bound", bound},
          {"floor_us", floorUs},
          {"floor", {{"memory_us", floorUs}, {"vector_us", floorUs / 2}, {"cube_us", 0.0}}},
          {"floor_ratio", floorUs / totalUs},
          {"lines", json::array({{{"code", "kernel.cpp:10"}, {"cycles", cycles}}})},
          {"notes", json::array()}};
}

}  // namespace

TEST(VerifierProfileSummary, SumsCasesAndKeepsSlowestDetails) {
  std::vector<CaseProfile> cases = {
      {"fast_first", caseProfile(2.0, 1.0, 3700, 1000, 0.9, "vector"), std::nullopt},
      {"slow_second", caseProfile(30.0, 4.0, 55500, 8000, 0.1, "mte2"), std::nullopt},
      {"middle", caseProfile(8.0, 2.0, 14800, 3000, 0.5, "vector"), std::nullopt},
  };
  const json s = summarizeProfiles(cases);
  ASSERT_TRUE(s.is_object());
  EXPECT_DOUBLE_EQ(s["total_us"].get<double>(), 40.0);
  EXPECT_EQ(s["total_cycles"].get<std::uint64_t>(), 3700u + 55500u + 14800u);
  EXPECT_EQ(s["gm_read_bytes"].get<std::uint64_t>(), 12000u);
  EXPECT_EQ(s["gm_write_bytes"].get<std::uint64_t>(), 6000u);
  EXPECT_DOUBLE_EQ(s["achieved_gbps"].get<double>(), 18000.0 / 40.0 / 1e3);
  EXPECT_DOUBLE_EQ(s["floor_us"].get<double>(), 7.0);
  EXPECT_DOUBLE_EQ(s["floor"]["memory_us"].get<double>(), 7.0);
  EXPECT_DOUBLE_EQ(s["floor"]["vector_us"].get<double>(), 3.5);
  EXPECT_DOUBLE_EQ(s["floor_ratio"].get<double>(), 7.0 / 40.0);
  EXPECT_EQ(s["slowest_case"]["name"], "slow_second");
  EXPECT_DOUBLE_EQ(s["slowest_case"]["total_us"].get<double>(), 30.0);
  EXPECT_EQ(s["details_case"], "slow_second");
  EXPECT_TRUE(s["complete"].get<bool>());
  ASSERT_EQ(s["cases"].size(), 3u);
  EXPECT_EQ(s["cases"][0]["name"], "fast_first");
  EXPECT_DOUBLE_EQ(s["cases"][0]["total_us"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(s["cases"][2]["floor_us"].get<double>(), 2.0);
  // Per-run details are the slowest case's, not the first case's.
  EXPECT_EQ(s["bound"], "mte2");
  EXPECT_DOUBLE_EQ(s["pipes"]["vector"]["ratio"].get<double>(), 0.1);
  EXPECT_EQ(s["blocks"][0]["cycles"], 55500);
  EXPECT_FALSE(s["notes"].empty());

  // Existing readers still understand it.
  const auto report = s.get<ProfileReport>();
  EXPECT_DOUBLE_EQ(report.totalUs, 40.0);
  ASSERT_TRUE(report.floorUs.has_value());
  EXPECT_DOUBLE_EQ(*report.floorUs, 7.0);
  EXPECT_EQ(report.bound, "mte2");
  EXPECT_DOUBLE_EQ(report.pipes.at("vector").ratio, 0.1);
}

TEST(VerifierProfileSummary, FastFirstCaseCannotHideSlowOnes) {
  // The old behaviour reported the first case only.
  const json s =
      summarizeProfiles({{"first", caseProfile(1.0, 0.5, 1850, 10, 0.5, "vector"), std::nullopt},
                         {"second", caseProfile(100.0, 0.5, 185000, 10, 0.5, "scalar"), std::nullopt}});
  EXPECT_GT(s["total_us"].get<double>(), 100.0);
  EXPECT_EQ(s["slowest_case"]["name"], "second");
}

TEST(VerifierProfileSummary, TensorFloorRaisesTraceFloor) {
  // A kernel that skipped reading its inputs shows a tiny trace floor; the tensor-byte floor wins.
  const json s = summarizeProfiles({{"a", caseProfile(10.0, 0.001, 18500, 0, 0.5, "scalar"), 0.5},
                                    {"b", caseProfile(10.0, 2.0, 18500, 0, 0.5, "mte2"), 0.5}});
  EXPECT_DOUBLE_EQ(s["floor_us"].get<double>(), 0.5 + 2.0);
  EXPECT_DOUBLE_EQ(s["cases"][0]["floor_us"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(s["floor"]["memory_us"].get<double>(), 0.5 + 2.0);
}

TEST(VerifierProfileSummary, MissingProfilesAndPartialFields) {
  EXPECT_TRUE(summarizeProfiles({}).is_null());
  EXPECT_TRUE(summarizeProfiles({{"a", nullptr, std::nullopt}}).is_null());
  json noFloor = caseProfile(5.0, 1.0, 9250, 100, 0.5, "vector");
  noFloor.erase("floor_us");
  noFloor.erase("floor");
  noFloor.erase("total_cycles");
  const json s = summarizeProfiles({{"a", caseProfile(3.0, 1.0, 5550, 100, 0.5, "vector"), std::nullopt},
                                    {"b", noFloor, std::nullopt},
                                    {"c", nullptr, std::nullopt}});
  EXPECT_DOUBLE_EQ(s["total_us"].get<double>(), 8.0);
  EXPECT_FALSE(s.contains("floor_us"));  // a partial sum would look like a floor of all cases
  EXPECT_FALSE(s.contains("total_cycles"));
  EXPECT_FALSE(s["complete"].get<bool>());
  EXPECT_TRUE(s["cases"][2]["total_us"].is_null());
  // msprof profiles carry task_duration_us; with a tensor floor every case has a floor.
  const json m = summarizeProfiles({{"a", {{"tool", "msprof op"}, {"task_duration_us", 4.0}}, 1.0},
                                    {"b", {{"tool", "msprof op"}, {"task_duration_us", 6.0}}, 2.0}});
  EXPECT_DOUBLE_EQ(m["total_us"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(m["floor_us"].get<double>(), 3.0);
  EXPECT_EQ(m["slowest_case"]["name"], "b");
}

TEST(VerifierProfileSummary, FloorFromTensorBytesUsesSocBandwidth) {
  const auto dir = std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "soc";
  const auto b1 = gmBandwidthOf(sim::loadSocByName("Ascend910B1", dir));
  EXPECT_DOUBLE_EQ(b1.bytesPerCycle, 783.8);  // 1.45 TB/s at 1850 MHz (fitted, docs/calibration.md)
  EXPECT_DOUBLE_EQ(b1.clockMhz, 1850.0);
  // add_custom large_1048583 float16: x, y read, z written = 3 * 1048583 * 2 bytes.
  const std::uint64_t n = 1048583;
  EXPECT_NEAR(floorUsFromTensorBytes(2 * n * 2, n * 2, b1), 6.0 * n / (783.8 * 1850.0), 1e-9);
  EXPECT_NEAR(floorUsFromTensorBytes(2 * n * 2, n * 2, b1), 4.339, 1e-3);
  // 1.6e9 bytes at 1.45 TB/s is about 1.1 ms; the slower 910B4 (533.3 B/cycle at 1500 MHz) takes 2 ms.
  EXPECT_NEAR(floorUsFromTensorBytes(800000000, 800000000, b1), 1.6e9 / (783.8 * 1850.0), 1e-6);
  const auto b4 = gmBandwidthOf(sim::loadSocByName("Ascend910B4", dir));
  EXPECT_NEAR(floorUsFromTensorBytes(800000000, 800000000, b4), 1.6e9 / (533.3 * 1500.0), 1e-6);
  const auto p3 = gmBandwidthOf(sim::loadSocByName("Ascend310P3", dir));
  EXPECT_NEAR(floorUsFromTensorBytes(1024, 1024, p3), 2048.0 / (193.2 * 1060.0), 1e-12);
  EXPECT_EQ(floorUsFromTensorBytes(1000, 1000, GmBandwidth{}), 0.0);
}

TEST(VerifierProfileSummary, TensorBytesOfPreparedCase) {
  const Task task = loadTaskDir(std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "add_custom");
  const VerificationCase* large = nullptr;
  for (const auto& c : task.cases)
    if (c.name == "large_1048583") large = &c;
  ASSERT_NE(large, nullptr);
  const auto b = tensorBytesOf(prepareCase(task, *large, 1));
  EXPECT_EQ(b.read, 2u * 1048583u * 2u);
  EXPECT_EQ(b.written, 1048583u * 2u);
}
