// SPDX-License-Identifier: MIT
// The one constraint enforcer: every kind of pinned constraint yields a diagnostic carrying that
// constraint's id, before the evaluation (text) or after it (the tiling's blockDim).
#include <gtest/gtest.h>

#include "core/agent/ConstraintEnforcer.h"

namespace kwb {
namespace {

const std::string kKernel =
    "#include \"kernel_operator.h\"\n"
    "constexpr int32_t BUFFER_NUM = 2;\n"
    "constexpr uint32_t TILE_LENGTH = 256;\n"
    "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x) {}\n";

Constraint withId(Constraint c, int id) {
  c.id = id;
  return c;
}

Candidate candidate(const std::string& src) {
  Candidate c;
  c.files["kernel.cpp"] = src;
  return c;
}

TEST(ConstraintEnforcer, ALockedRegionBreachCarriesItsId) {
  const Constraint lock = withId(Constraint::lockRegion("kernel.cpp", kKernel, 2, 2), 7);
  const ConstraintEnforcer e({lock});
  EXPECT_TRUE(e.before(candidate(kKernel)).empty());
  std::string changed = kKernel;
  changed.replace(changed.find("BUFFER_NUM = 2"), 14, "BUFFER_NUM = 1");
  auto v = e.before(candidate(changed));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].constraintId, 7);
  EXPECT_EQ(v[0].category, "policy-violation");
  EXPECT_EQ(v[0].source, "policy");
  Candidate moved;
  moved.files["other.cpp"] = kKernel;  // the locked file is gone
  v = e.before(moved);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].constraintId, 7);
}

TEST(ConstraintEnforcer, AFixedParameterBreachCarriesItsId) {
  const ConstraintEnforcer e({withId(Constraint::fixParameter("BUFFER_NUM", 1), 2),
                              withId(Constraint::fixParameter("TILE_LENGTH", 256), 3),
                              withId(Constraint::fixParameter("UNROLL", 4), 4)});
  const auto v = e.before(candidate(kKernel));
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].constraintId, 2);  // wrong value
  EXPECT_EQ(v[0].line, 2);
  EXPECT_EQ(v[1].constraintId, 4);  // no longer defined
}

TEST(ConstraintEnforcer, AFixedBlockDimIsCheckedAfterTheRunAndCarriesItsId) {
  const ConstraintEnforcer e({withId(Constraint::fixParameter("blockDim", 8), 5)});
  EXPECT_TRUE(e.before(candidate(kKernel)).empty());  // not a text check
  const nlohmann::json ok = {{"runs", {{{"case", "small"}, {"block_dim", 8}}}}};
  EXPECT_TRUE(e.after(ok).empty());
  const nlohmann::json bad = {
      {"runs", {{{"case", "small"}, {"block_dim", 8}}, {{"case", "tail"}, {"block_dim", 40}}}}};
  const auto v = e.after(bad);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].constraintId, 5);
  EXPECT_EQ(v[0].category, "policy-violation");
  EXPECT_NE(v[0].message.find("kwb_tiling chose 40 for case tail"), std::string::npos) << v[0].message;
  // Reports without runs (the candidate never ran) or with odd values are not findings.
  EXPECT_TRUE(e.after(nlohmann::json::object()).empty());
  EXPECT_TRUE(e.after(nlohmann::json{{"runs", {{{"block_dim", "8"}}}}}).empty());
  EXPECT_TRUE(e.after(nlohmann::json{{"runs", 3}}).empty());
}

TEST(ConstraintEnforcer, TextRulesAreAdviceOnly) {
  const ConstraintEnforcer e({withId(Constraint::rule("Keep two buffers."), 1)});
  EXPECT_TRUE(e.before(candidate("anything")).empty());
  EXPECT_TRUE(e.after(nlohmann::json{{"runs", {{{"block_dim", 3}}}}}).empty());
}

}  // namespace
}  // namespace kwb
