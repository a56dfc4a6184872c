// SPDX-License-Identifier: MIT
// The suite metrics against values computed by hand (docs/suites.md, "Metrics").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/suite/PassAtK.h"
#include "core/suite/SampleOutcome.h"
#include "core/suite/SuiteMetrics.h"

namespace kwb::suite {
namespace {

TEST(SuitePassAtK, MatchesHandComputedBinomials) {
  // n = 5, c = 2: 1 - C(3,k)/C(5,k).
  EXPECT_DOUBLE_EQ(*passAtK(5, 2, 1), 0.4);                    // 1 - 3/5
  EXPECT_DOUBLE_EQ(*passAtK(5, 2, 2), 0.7);                    // 1 - 3/10
  EXPECT_NEAR(*passAtK(5, 2, 3), 0.9, 1e-12);                  // 1 - 1/10
  EXPECT_DOUBLE_EQ(*passAtK(5, 2, 4), 1.0);                    // fewer failures (3) than draws
  EXPECT_NEAR(*passAtK(10, 3, 5), 1.0 - 21.0 / 252.0, 1e-12);  // 1 - C(7,5)/C(10,5)
  EXPECT_NEAR(*passAtK(200, 1, 100), 0.5, 1e-12);              // 1 - C(199,100)/C(200,100) = 1 - 100/200
  EXPECT_DOUBLE_EQ(*passAtK(4, 0, 2), 0.0);
  EXPECT_DOUBLE_EQ(*passAtK(4, 4, 1), 1.0);
}

TEST(SuitePassAtK, IsUndefinedWithoutEnoughSamples) {
  EXPECT_FALSE(passAtK(2, 1, 3).has_value());  // k > n
  EXPECT_FALSE(passAtK(0, 0, 1).has_value());
  EXPECT_FALSE(passAtK(3, 4, 1).has_value());  // more successes than samples
  EXPECT_FALSE(passAtK(3, 1, 0).has_value());
}

SampleOutcome makeSample(const std::string& task, const std::string& category, int k, bool compiled,
                         std::optional<double> bestUs,
                         std::optional<int> iterationsToCorrect = std::nullopt) {
  SampleOutcome s;
  s.task = task;
  s.category = category;
  s.sample = k;
  s.finished = true;
  s.compiled = compiled;
  s.correct = bestUs.has_value();
  s.bestUs = bestUs;
  s.iterationsToCorrect = iterationsToCorrect;
  if (iterationsToCorrect) s.tokensToCorrect = *iterationsToCorrect * 1000;
  s.ranOn = {"emulator"};
  return s;
}

TEST(SuiteMetrics, PerTaskPerCategoryAndOverallMatchHandComputedValues) {
  // add: 4 samples, 3 compiled, 2 correct (10 us and 20 us), expert 20 us, task baseline 40 us.
  // mul: 2 samples, 1 compiled, none correct, no expert, no task baseline.
  std::vector<SampleOutcome> samples{makeSample("add", "elementwise", 1, true, 10.0, 3),
                                     makeSample("add", "elementwise", 2, true, 20.0, 1),
                                     makeSample("add", "elementwise", 3, true, std::nullopt),
                                     makeSample("add", "elementwise", 4, false, std::nullopt),
                                     makeSample("mul", "activation", 1, true, std::nullopt),
                                     makeSample("mul", "activation", 2, false, std::nullopt)};
  for (auto& s : samples)
    if (s.task == "add") s.taskBaselineUs = 40.0;
  samples[0].diagnosticCategories = {"misaligned-copy"};
  samples[4].diagnosticCategories = {"misaligned-copy", "compile-error"};
  MetricsOptions options;
  options.ks = {1, 2, 5};
  options.ps = {0.0, 1.0, 1.5, 2.0};
  const SuiteMetrics m = computeSuiteMetrics(samples, {{"add", 20.0}}, options);
  ASSERT_EQ(m.tasks.size(), 2u);
  const GroupMetrics& add = m.tasks[0];
  const GroupMetrics& mul = m.tasks[1];
  ASSERT_EQ(add.name, "add");
  EXPECT_DOUBLE_EQ(*add.compileAtK.at(1), 0.75);
  EXPECT_DOUBLE_EQ(*add.correctAtK.at(1), 0.5);
  EXPECT_NEAR(*add.correctAtK.at(2), 1.0 - 1.0 / 6.0, 1e-12);  // 1 - C(2,2)/C(4,2)
  EXPECT_FALSE(add.correctAtK.at(5).has_value());              // only 4 samples
  // Speedups vs the expert: 2.0 and 1.0; fast_p counts "more than p times faster".
  EXPECT_DOUBLE_EQ(*add.fastVsExpert.at(0.0), 0.5);
  EXPECT_DOUBLE_EQ(*add.fastVsExpert.at(1.0), 0.25);
  EXPECT_DOUBLE_EQ(*add.fastVsExpert.at(1.5), 0.25);
  EXPECT_DOUBLE_EQ(*add.fastVsExpert.at(2.0), 0.0);
  // Vs the task's baseline (40 us): 4.0 and 2.0.
  EXPECT_DOUBLE_EQ(*add.fastVsTask.at(1.5), 0.5);
  EXPECT_DOUBLE_EQ(*add.fastVsTask.at(2.0), 0.25);
  EXPECT_DOUBLE_EQ(*add.meanIterationsToCorrect, 2.0);
  EXPECT_DOUBLE_EQ(*add.meanTokensToCorrect, 2000.0);
  EXPECT_DOUBLE_EQ(*add.bestSpeedupVsExpert, 2.0);
  EXPECT_EQ(add.diagnosticCategories.at("misaligned-copy"), 1);

  EXPECT_DOUBLE_EQ(*mul.compileAtK.at(1), 0.5);
  EXPECT_DOUBLE_EQ(*mul.correctAtK.at(2), 0.0);
  EXPECT_FALSE(mul.fastVsExpert.at(1.0).has_value());  // no baseline: no fast_p
  EXPECT_FALSE(mul.meanIterationsToCorrect.has_value());

  // Categories: one task each, so their values are the task's.
  ASSERT_EQ(m.categories.size(), 2u);
  EXPECT_EQ(m.categories[0].name, "activation");
  EXPECT_DOUBLE_EQ(*m.categories[1].correctAtK.at(1), 0.5);

  // Overall: the mean over tasks (not samples), skipping tasks without a value.
  EXPECT_EQ(m.overall.samples, 6);
  EXPECT_DOUBLE_EQ(*m.overall.compileAtK.at(1), 0.625);
  EXPECT_DOUBLE_EQ(*m.overall.correctAtK.at(1), 0.25);
  EXPECT_NEAR(*m.overall.correctAtK.at(2), (1.0 - 1.0 / 6.0) / 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(*m.overall.fastVsExpert.at(1.0), 0.25);  // mul has none, so add's alone
  EXPECT_DOUBLE_EQ(*m.overall.meanIterationsToCorrect, 2.0);
  EXPECT_EQ(m.overall.diagnosticCategories.at("misaligned-copy"), 2);
  EXPECT_EQ(m.overall.diagnosticCategories.at("compile-error"), 1);

  const nlohmann::json j = m;
  EXPECT_EQ(j["overall"]["correct_at_k"]["1"], 0.25);
  EXPECT_TRUE(j["overall"]["correct_at_k"]["5"].is_null());
  EXPECT_EQ(j["tasks"][0]["fast_p_vs_expert"]["1.5"], 0.25);
  EXPECT_EQ(j["tasks"][0]["expert_us"], 20.0);
  EXPECT_FALSE(j["overall"].contains("expert_us"));
}

Iteration iteration(int id, Verdict verdict, std::int64_t tokens) {
  Iteration it;
  it.id = id;
  it.state = IterationState::Done;
  it.verdict = verdict;
  it.usage = LlmUsage{tokens / 2, tokens - tokens / 2, "m", "openai", 1};
  return it;
}

TEST(SuiteSampleOutcome, CountsIterationsAndTokensToTheFirstCorrectKernel) {
  Session s;
  s.task.name = "add_custom";
  s.task.category = "elementwise";
  Iteration broken = iteration(1, Verdict::CompileError, 100);
  broken.compile = CompileResult{};
  Diagnostic d;
  d.category = "compile-error";
  broken.compile->diagnostics.push_back(d);
  Iteration stopped = iteration(2, Verdict::Pass, 50);
  stopped.state = IterationState::Stopped;  // not evaluated: not counted as an iteration, its tokens are
  stopped.verdict.reset();
  Iteration pass = iteration(3, Verdict::Pass, 300);
  pass.compile = CompileResult{};
  pass.compile->ok = true;
  pass.profile = ProfileReport{};
  pass.profile->totalUs = 12.5;
  pass.profile->source = "emulator-model";
  pass.run = RunResult{};
  Iteration faster = iteration(4, Verdict::Pass, 200);
  faster.profile = ProfileReport{};
  faster.profile->totalUs = 9.0;
  s.iterations = {broken, stopped, pass, faster};
  const SampleOutcome o = sampleOutcomeFromSession(s, 2);
  EXPECT_EQ(o.sample, 2);
  EXPECT_TRUE(o.compiled);
  EXPECT_TRUE(o.correct);
  EXPECT_EQ(o.iterations, 3);
  EXPECT_EQ(*o.iterationsToCorrect, 2);
  EXPECT_EQ(*o.tokensToCorrect, 450);
  EXPECT_EQ(o.tokens, 650);
  EXPECT_DOUBLE_EQ(*o.bestUs, 9.0);
  EXPECT_EQ(o.diagnosticCategories, std::set<std::string>{"compile-error"});
  EXPECT_EQ(o.ranOn, std::set<std::string>{"emulator"});
  EXPECT_EQ(o.profileSources, std::set<std::string>{"emulator-model"});
  // The JSON form round-trips, and a damaged one is refused with the key named.
  EXPECT_EQ(sampleOutcomeFromJson(nlohmann::json(o)), o);
  nlohmann::json bad = o;
  bad.erase("correct");
  try {
    (void)sampleOutcomeFromJson(bad);
    FAIL() << "accepted an outcome without \"correct\"";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("correct"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kwb::suite
