// SPDX-License-Identifier: MIT
// Every cost-model profile carries the model's expected error for its kind of kernel, taken from the SoC
// file's calibration section (docs/calibration.md), and says it in words.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/emulator/costmodel/CostModel.h"
#include "tests/core/CostModelTraceBuilder.h"

namespace kwb::sim {
namespace {

std::filesystem::path socDir() {
  return std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "soc";
}

kwb_sim::LaunchTrace streamingRead() {
  test::TraceBuilder t("read", "Ascend910B1");
  for (std::uint64_t off = 0; off < (4u << 20); off += 16384) t.copyIn(0, 0x10000000 + off, 0, 16384, 10);
  return t.trace();
}

TEST(CostModelUncertainty, ProfileQuotesTheCalibratedErrorOfItsBound) {
  const SocParams soc = loadSocByName("Ascend910B1", socDir());
  ASSERT_EQ(soc.expectedErrorPct.size(), 6u);
  const Profile p = simulate(soc, streamingRead());
  ASSERT_EQ(p.bound, "memory");
  EXPECT_DOUBLE_EQ(p.expectedErrorPct, soc.expectedErrorPct.at("memory"));
  EXPECT_EQ(soc.provenance.at("calibration.expected_error_pct.memory").source, "fitted");
  const nlohmann::json j = profileToJson(p);
  EXPECT_DOUBLE_EQ(j.at("expected_error_pct").get<double>(), soc.expectedErrorPct.at("memory"));
  const std::string label = estimateLabel(p);
  EXPECT_NE(label.find("\u00b1 10 %, emulator estimate"), std::string::npos) << label;
  EXPECT_EQ(label.rfind("\u2248 ", 0), 0u) << label;
}

TEST(CostModelUncertainty, UncalibratedFileSaysSo) {
  SocParams soc = loadSocByName("Ascend910B1", socDir());
  soc.expectedErrorPct.clear();
  const Profile p = simulate(soc, streamingRead());
  EXPECT_LT(p.expectedErrorPct, 0);
  EXPECT_FALSE(profileToJson(p).contains("expected_error_pct"));
  EXPECT_NE(estimateLabel(p).find("not calibrated"), std::string::npos);
}

}  // namespace
}  // namespace kwb::sim
