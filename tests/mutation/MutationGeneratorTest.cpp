// SPDX-License-Identifier: MIT
// The mutation generator and scorer (bench/mutation): pure functions, checked on the bundled experts.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "bench/mutation/MutationGenerator.h"
#include "bench/mutation/MutationRunner.h"
#include "bench/mutation/MutationScore.h"

namespace kwb::mutation {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t b = 0;
  for (std::size_t e; (e = text.find('\n', b)) != std::string::npos; b = e + 1)
    out.push_back(text.substr(b, e - b));
  out.push_back(text.substr(b));
  return out;
}

const std::vector<Expert>& experts() {
  static const std::vector<Expert> all = loadExperts(KWB_SOURCE_DIR "/resources/tasks", {});
  return all;
}

const Expert& expert(const std::string& name) {
  for (const auto& e : experts())
    if (e.task.name == name) return e;
  throw std::runtime_error("no expert " + name);
}

Mutant mutantOf(const std::string& task, const std::string& op) {
  for (auto& m : generateMutants(expert(task).kernel))
    if (m.op == op) return m;
  throw std::runtime_error("no mutant " + task + "/" + op);
}

TEST(MutationGenerator, EveryMutantChangesOnlyItsCauseLinesAndMovesNothing) {
  std::set<std::string> opsSeen;
  int count = 0;
  for (const auto& e : experts()) {
    const auto original = lines(e.kernel.source);
    for (const auto& m : generateMutants(e.kernel)) {
      ++count;
      opsSeen.insert(m.op);
      SCOPED_TRACE(m.id());
      const auto mutated = lines(m.source);
      ASSERT_EQ(mutated.size(), original.size());
      ASSERT_FALSE(m.causeLines.empty());
      EXPECT_FALSE(m.expectedCategory.empty());
      int changed = 0;
      for (std::size_t i = 0; i < original.size(); ++i)
        if (original[i] != mutated[i]) {
          ++changed;
          EXPECT_TRUE(m.causeLines.count(static_cast<int>(i) + 1)) << "changed line " << i + 1;
        }
      EXPECT_EQ(changed, 1);
    }
  }
  EXPECT_GE(count, 150);
  const auto ids = mutationOperatorIds();
  EXPECT_EQ(opsSeen, std::set<std::string>(ids.begin(), ids.end()));
}

TEST(MutationGenerator, DeletedEnQueBlamesTheLineAndTheCopyItShouldHaveFollowed) {
  const Mutant m = mutantOf("add_custom", "delete-enque");
  EXPECT_EQ(m.expectedCategory, "queue-misuse");
  EXPECT_EQ(m.causeLines, (std::set<int>{48, 50}));
  EXPECT_EQ(lines(m.source)[49], "");
  EXPECT_NE(lines(expert("add_custom").kernel.source)[47].find("DataCopyPad(l, xGm[off]"), std::string::npos);
}

TEST(MutationGenerator, OperatorsRewriteTheSiteTheyName) {
  EXPECT_NE(lines(mutantOf("reduce_sum_rows", "loop-bound").source)[43].find("row <= rowCount_"),
            std::string::npos);
  EXPECT_NE(lines(mutantOf("add_custom", "tail-clamp").source)[36].find("const uint32_t n = tile_;"),
            std::string::npos);
  EXPECT_NE(
      lines(mutantOf("add_custom", "block-offset").source)[29].find("(__gm__ half*)z + (start) / 2, length_"),
      std::string::npos);
  EXPECT_NE(lines(mutantOf("add_custom", "tile-length").source)[30].find("tile_ / 2 * sizeof(half)"),
            std::string::npos);
  EXPECT_NE(lines(mutantOf("add_custom", "deque-as-alloc").source)[60].find("xQueue.AllocTensor<half>()"),
            std::string::npos);
  EXPECT_NE(lines(mutantOf("add_custom", "blockdim-zero").source)[113].find("kwb_set_block_dim(out, 0);"),
            std::string::npos);
  const Mutant eps = mutantOf("layernorm_rows", "hardcode-attr");
  EXPECT_NE(lines(eps.source)[30].find("eps_ = static_cast<float>(1e-05);"), std::string::npos);
  const Mutant wait = mutantOf("broadcast_add_row", "delete-waitflag");
  EXPECT_EQ(wait.causeLines, (std::set<int>{50, 51}));
  const Mutant shift = mutantOf("reduce_sum_rows", "blockidx-shift");
  EXPECT_EQ(shift.expectedCategory, "wrong-answer");
  EXPECT_EQ(shift.causeLines, (std::set<int>{26}));
  EXPECT_NE(lines(shift.source)[25].find("static_cast<uint32_t>((GetBlockIdx() + 1));"), std::string::npos);
  const Mutant range = mutantOf("add_custom", "range-length");
  EXPECT_EQ(range.causeLines, (std::set<int>{28}));
  EXPECT_NE(lines(range.source)[27].find("xGm.SetGlobalBuffer((__gm__ half*)x + start, length_ / 2);"),
            std::string::npos);
  // A deleted FreeTensor after a brace-less loop: the cause is the loop's body, not its header.
  const Mutant free = mutantOf("matmul_f16_f32", "delete-free");
  EXPECT_EQ(free.causeLines, (std::set<int>{90, 93}));
  const Mutant pad = mutantOf("reduce_sum_rows", "reduce-reads-padding");
  EXPECT_EQ(pad.expectedCategory, "uninitialized-read");
  EXPECT_NE(lines(pad.source)[46].find("ReduceSum(r, x, w, static_cast<int32_t>(colsAligned_));"),
            std::string::npos);
}

TEST(MutationGenerator, KernelsWithoutTheSiteGetNoMutantOfThatKind) {
  ExpertKernel k{"plain", "int main() { return 0; }\n", {"z"}, {}};
  EXPECT_TRUE(generateMutants(k).empty());
}

Diagnostic error(const std::string& category, const std::string& file, int line,
                 Severity severity = Severity::Error) {
  Diagnostic d;
  d.category = category;
  d.file = file;
  d.line = line;
  d.severity = severity;
  return d;
}

TEST(MutationScore, CountsOnlyErrorsOfTheExpectedCategoryInTheCandidateAtACauseLine) {
  Mutant m{"t", "delete-enque", "", "queue-misuse", {48, 50}, ""};
  auto o = scoreMutant(m, Verdict::RuntimeError, {error("queue-misuse", "/w/kernel.cpp", 61)}, "kernel.cpp");
  EXPECT_TRUE(o.detected);
  EXPECT_TRUE(o.rightCategory);
  EXPECT_FALSE(o.atCauseLine);
  EXPECT_EQ(o.reported, std::vector<std::string>{"queue-misuse@61"});
  o = scoreMutant(m, Verdict::RuntimeError,
                  {error("queue-misuse", "/w/main.cpp", 50), error("timeout", "/w/kernel.cpp", 50),
                   error("queue-misuse", "/w/kernel.cpp", 50, Severity::Warning)},
                  "kernel.cpp");
  EXPECT_TRUE(o.rightCategory);  // main.cpp's error has the category, though not in the candidate
  EXPECT_FALSE(o.atCauseLine);
  o = scoreMutant(m, Verdict::RuntimeError, {error("queue-misuse", "/w/kernel.cpp", 48)}, "kernel.cpp");
  EXPECT_TRUE(o.atCauseLine);
  o = scoreMutant(m, Verdict::Pass, {}, "kernel.cpp");
  EXPECT_FALSE(o.detected);
  EXPECT_FALSE(o.rightCategory);
}

TEST(MutationScore, AnExpertWithAnErrorOrAFailingVerdictIsAFalseAlarm) {
  EXPECT_FALSE(scoreExpert("t", Verdict::Pass, {}).falseAlarm());
  EXPECT_TRUE(scoreExpert("t", Verdict::Pass, {error("missing-sync", "k.cpp", 3)}).falseAlarm());
  EXPECT_FALSE(
      scoreExpert("t", Verdict::Pass, {error("missing-sync", "k.cpp", 3, Severity::Warning)}).falseAlarm());
  EXPECT_TRUE(scoreExpert("t", Verdict::WrongAnswer, {}).falseAlarm());
  const Totals t =
      totals({}, {scoreExpert("a", Verdict::Pass, {}), scoreExpert("b", Verdict::WrongAnswer, {})});
  EXPECT_EQ(t.experts, 2);
  EXPECT_EQ(t.falseAlarms, 1);
}

}  // namespace
}  // namespace kwb::mutation
