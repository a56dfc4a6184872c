// SPDX-License-Identifier: MIT
// The suite's report forms and its folder layout: JUnit XML per sample, the comparison of two reports,
// the HTML page's self-containment and the plan's JSON round trip (docs/suites.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/suite/SuiteCompare.h"
#include "core/suite/SuiteHtmlReport.h"
#include "core/suite/SuiteLayout.h"
#include "core/suite/SuiteReport.h"

namespace kwb::suite {
namespace {

SuiteReport smallReport() {
  SuiteReport r;
  r.plan.tasks = {{"add<&>", "/tasks/add"}, {"relu", "/tasks/relu"}};
  r.plan.samples = 2;
  SampleOutcome pass;
  pass.task = "add<&>";
  pass.sample = 1;
  pass.finished = true;
  pass.compiled = pass.correct = true;
  pass.bestUs = 5.0;
  SampleOutcome wrong = pass;
  wrong.sample = 2;
  wrong.correct = false;
  wrong.bestUs.reset();
  wrong.finishReason = "iteration budget (2) reached";
  SampleOutcome open;
  open.task = "relu";
  open.sample = 1;
  open.finishReason = "stopped";
  r.samples = {pass, wrong, open};
  r.notRun = {"relu sample-2"};
  r.expertUs = {{"add<&>", 10.0}};
  r.metrics = computeSuiteMetrics(r.samples, r.expertUs, {});
  r.timingSource = "emulator estimate (cost model, not a device)";
  return r;
}

TEST(SuiteReport, JunitHasOneCasePerSampleWithFailuresAndSkips) {
  const std::string xml = suiteJunitXml(smallReport());
  EXPECT_NE(xml.find("<testsuites name=\"kwb suite\" tests=\"3\" failures=\"1\" skipped=\"1\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"add&lt;&amp;&gt;\" tests=\"2\" failures=\"1\""), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<failure message=\"no correct kernel\">iteration budget (2) reached</failure>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<skipped message=\"not finished: stopped\"/>"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("<add"), std::string::npos) << "a task name went into the XML unescaped";
}

TEST(SuiteReport, HtmlIsSelfContainedAndSaysWhereTimesRan) {
  const std::string html = suiteHtmlReport(smallReport());
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("emulator estimate (cost model, not a device)"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_NE(html.find("add&lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(html.find("not run"), std::string::npos);  // relu sample-2 in the grid
}

TEST(SuiteCompare, ShowsDeltasOfSharedMetrics) {
  SuiteReport a = smallReport();
  SuiteReport b = smallReport();
  b.samples[1].correct = true;
  b.samples[1].bestUs = 4.0;
  b.metrics = computeSuiteMetrics(b.samples, b.expertUs, {});
  const nlohmann::json c = compareSuiteReports(suiteReportJson(a), suiteReportJson(b), "A", "B");
  bool sawOverall = false, sawTask = false;
  for (const auto& row : c["rows"]) {
    if (row["metric"] != "correct@1") continue;
    if (row["group"] == "overall") {
      sawOverall = true;
      // A: add 1/2, relu 0/1 -> 0.25; B: add 2/2 -> 0.5.
      EXPECT_DOUBLE_EQ(row["delta"].get<double>(), 0.25);
    }
    if (row["group"] == "add<&>") {
      sawTask = true;
      EXPECT_DOUBLE_EQ(row["a"].get<double>(), 0.5);
      EXPECT_DOUBLE_EQ(row["b"].get<double>(), 1.0);
    }
  }
  EXPECT_TRUE(sawOverall && sawTask) << c.dump(1);
  EXPECT_NE(renderSuiteComparison(c).find("correct@1"), std::string::npos);
  EXPECT_THROW((void)compareSuiteReports(nlohmann::json::object(), suiteReportJson(b), "empty.json", "B"),
               std::runtime_error);
}

TEST(SuiteLayout, PlanRoundTripsAndRefusesBadSampleCounts) {
  SuitePlan plan;
  plan.tasks = {{"add_custom", "/t/add_custom"}};
  plan.samples = 3;
  plan.settings.provider = "openai";
  plan.settings.limits.maxIterations = 4;
  plan.budgets.taskTokens = 5000;
  plan.budgets.totalSeconds = 60;
  EXPECT_EQ(planFromJson(planToJson(plan), "suite.json"), plan);
  nlohmann::json bad = planToJson(plan);
  bad["samples"] = 0;
  try {
    (void)planFromJson(bad, "x/suite.json");
    FAIL() << "accepted 0 samples";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("x/suite.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("samples"), std::string::npos) << e.what();
  }
  // A plan's task names become folder names: nothing that could leave the suite folder.
  nlohmann::json escaping = planToJson(plan);
  escaping["tasks"][0]["name"] = "../../etc";
  EXPECT_THROW((void)planFromJson(escaping, "suite.json"), std::runtime_error);
  EXPECT_EQ(sampleSessionDir("/s", "add_custom", 2),
            std::filesystem::path("/s/sessions/add_custom/sample-2"));
  EXPECT_EQ(sampleDoneFile("/s", "add_custom", 2),
            std::filesystem::path("/s/sessions/add_custom/sample-2.done.json"));
}

}  // namespace
}  // namespace kwb::suite
