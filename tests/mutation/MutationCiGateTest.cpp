// SPDX-License-Identifier: MIT
// The mutation benchmark's CI gate: a fixed subset of mutants through the real evaluator (compile, run on
// the emulator, verify), each held to at least the result recorded in docs/benchmarks.md, and the
// unmutated experts of those tasks held to no false alarm. A feedback change that loses a detection, a
// category or a cause line fails here; one that gains raises the bar (update the table below).
#include <gtest/gtest.h>

#include "bench/mutation/MutationRunner.h"

namespace kwb::mutation {
namespace {

struct Expectation {
  const char* task;
  const char* op;
  bool detected;
  bool rightCategory;
  bool atCauseLine;
};

// clang-format off
constexpr Expectation kGate[] = {
    {"abs_custom",        "delete-free",          true,  true,  true},
    {"abs_custom",        "deque-as-alloc",       true,  true,  true},
    {"add_custom",        "delete-enque",         true,  true,  true},
    {"add_custom",        "delete-free",          true,  true,  true},
    {"add_custom",        "tail-clamp",           true,  true,  true},
    {"add_custom",        "block-offset",         true,  true,  true},
    {"add_custom",        "tile-length",          true,  true,  true},
    {"add_custom",        "blockdim-zero",        true,  true,  true},
    {"reduce_sum_rows",   "loop-bound",           true,  true,  true},
    {"reduce_sum_rows",   "deque-as-alloc",       true,  true,  true},
    {"reduce_sum_rows",   "reduce-reads-padding", true,  true,  true},
    {"broadcast_add_row", "delete-waitflag",      true,  true,  true},
    {"layernorm_rows",    "hardcode-attr",        true,  true,  true},
    {"reduce_sum_rows",   "blockidx-shift",       true,  true,  true},
    {"add_custom",        "range-length",         true,  true,  true},
};
// clang-format on

const std::vector<Expert>& gateExperts() {
  static const std::vector<Expert> all =
      loadExperts(KWB_SOURCE_DIR "/resources/tasks",
                  {"abs_custom", "add_custom", "broadcast_add_row", "layernorm_rows", "reduce_sum_rows"});
  return all;
}

void PrintTo(const Expectation& e, std::ostream* os) {
  *os << e.task << "/" << e.op;
}

class MutationCiGate : public ::testing::TestWithParam<Expectation> {};

TEST_P(MutationCiGate, MutantIsCaughtAtLeastAsWellAsRecorded) {
  const Expectation& want = GetParam();
  const Expert* expert = nullptr;
  for (const auto& e : gateExperts())
    if (e.task.name == want.task) expert = &e;
  ASSERT_NE(expert, nullptr);
  std::optional<Mutant> mutant;
  for (auto& m : generateMutants(expert->kernel))
    if (m.op == want.op) mutant = std::move(m);
  ASSERT_TRUE(mutant) << "the generator no longer makes " << want.task << "/" << want.op;
  const MutantOutcome got = evaluateMutant(expert->task, *mutant, {});
  std::string reported;
  for (const auto& r : got.reported) reported += " " + r;
  SCOPED_TRACE(mutant->id() + ": " + got.verdict + ", errors:" + reported);
  if (want.detected) {
    EXPECT_TRUE(got.detected);
  }
  if (want.rightCategory) {
    EXPECT_TRUE(got.rightCategory) << "expected " << mutant->expectedCategory;
  }
  if (want.atCauseLine) {
    EXPECT_TRUE(got.atCauseLine) << "cause lines do not include any " << mutant->expectedCategory << " error";
  }
}

std::string gateName(const ::testing::TestParamInfo<Expectation>& info) {
  std::string name = std::string(info.param.task) + "_" + info.param.op;
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Subset, MutationCiGate, ::testing::ValuesIn(kGate), gateName);

TEST(MutationCiGate, UnmutatedExpertsGetNoFalseAlarm) {
  for (const auto& e : gateExperts()) {
    const ExpertOutcome got = evaluateExpert(e, {});
    std::string reported;
    for (const auto& r : got.reported) reported += " " + r;
    EXPECT_FALSE(got.falseAlarm()) << e.task.name << ": " << got.verdict << reported;
  }
}

}  // namespace
}  // namespace kwb::mutation
