// SPDX-License-Identifier: MIT
// The phase timings `kwb eval --timings` prints and the workbench's status bar shows
// (core/model/PhaseTimings.h): totals per phase in first-seen order, the printed table, the one-line
// summary, the JSON form and the clock that measures them.

#include "core/model/PhaseTimings.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace {

using kwb::PhaseTiming;
using kwb::PhaseTimings;

PhaseTimings sample() {
  return {{"policy", "", 110.0},       {"compile", "", 420.5},   {"inputs", "small", 1.25},
          {"emulator", "small", 80.0}, {"inputs", "large", 3.0}, {"emulator", "large", 120.0},
          {"verify", "large", 2.0}};
}

TEST(PhaseTimings, TotalsKeepTheOrderPhasesFirstRanIn) {
  const PhaseTimings totals = kwb::totalsByPhase(sample());
  ASSERT_EQ(totals.size(), 5u);
  EXPECT_EQ(totals[0], (PhaseTiming{"policy", "", 110.0}));
  EXPECT_EQ(totals[1], (PhaseTiming{"compile", "", 420.5}));
  EXPECT_EQ(totals[2], (PhaseTiming{"inputs", "", 4.25}));
  EXPECT_EQ(totals[3], (PhaseTiming{"emulator", "", 200.0}));
  EXPECT_EQ(totals[4], (PhaseTiming{"verify", "", 2.0}));
}

TEST(PhaseTimings, PrintedTableHasTotalsSharesCaseCountsAndOneLinePerCase) {
  EXPECT_EQ(kwb::formatPhaseTimings(sample(), 1000.0),
            "timings: 1000.0 ms in all\n"
            "  policy                110.0 ms  11.0 %\n"
            "  compile               420.5 ms  42.0 %\n"
            "  inputs                  4.2 ms   0.4 %  (2 cases)\n"
            "  emulator              200.0 ms  20.0 %  (2 cases)\n"
            "  verify                  2.0 ms   0.2 %  (1 case)\n"
            "  other                 263.2 ms  26.3 %\n"
            "  case small: inputs 1.2 emulator 80.0 ms\n"
            "  case large: inputs 3.0 emulator 120.0 verify 2.0 ms\n");
}

TEST(PhaseTimings, NoOtherLineWhenThePhasesCoverTheTotal) {
  const std::string t = kwb::formatPhaseTimings({{"compile", "", 50.0}}, 50.0);
  EXPECT_EQ(t, "timings: 50.0 ms in all\n  compile                50.0 ms 100.0 %\n");
}

TEST(PhaseTimings, SummaryLineNamesTheLargestPhases) {
  EXPECT_EQ(kwb::phaseTimingsSummaryLine(sample(), 1000.0, 3),
            "eval 1000 ms: compile 420, emulator 200, policy 110, \u2026");
  EXPECT_EQ(kwb::phaseTimingsSummaryLine({}, 12.0), "eval 12 ms");
}

TEST(PhaseTimings, JsonRoundTripOmitsAnEmptyCase) {
  const nlohmann::json j = sample();
  EXPECT_FALSE(j[0].contains("case"));
  EXPECT_EQ(j[2]["case"], "small");
  EXPECT_EQ(j.get<PhaseTimings>(), sample());
}

TEST(PhaseTimings, ClockAppendsConsecutiveLaps) {
  PhaseTimings t;
  kwb::PhaseClock clock(t);
  clock.lap("a");
  clock.skip();
  clock.lap("b", "case1");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].phase, "a");
  EXPECT_EQ(t[1].caseName, "case1");
  EXPECT_GE(t[0].ms, 0.0);
  EXPECT_GE(t[1].ms, 0.0);
}

TEST(PhaseTimings, ReportSummaryReadsEvalJsonAndRefusesMalformedTimings) {
  nlohmann::json report = {{"duration_ms", 812.4}, {"timings", sample()}};
  EXPECT_EQ(kwb::reportTimingsSummaryLine(report),
            "eval 812 ms: compile 420, emulator 200, policy 110, inputs 4, …");
  EXPECT_EQ(kwb::reportTimingsSummaryLine(nlohmann::json::object()), std::nullopt);
  EXPECT_EQ(kwb::reportTimingsSummaryLine(nlohmann::json("text")), std::nullopt);
  report["timings"][1]["ms"] = "fast";
  EXPECT_EQ(kwb::reportTimingsSummaryLine(report), std::nullopt);
  report["timings"] = nlohmann::json::array({{{"phase", 3}, {"ms", 1.0}}});
  EXPECT_EQ(kwb::reportTimingsSummaryLine(report), std::nullopt);
}

}  // namespace
