// SPDX-License-Identifier: MIT
#pragma once
// A suite's report (docs/suites.md, "Reports"), rebuilt from the suite folder alone: every sample's
// session (and its .done.json), the expert measurements and the plan. Three forms: report.json (the
// metrics and every sample), JUnit XML (one test case per sample, for CI dashboards) and one HTML page
// (SuiteHtmlReport.h).

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/suite/SampleOutcome.h"
#include "core/suite/SuiteLayout.h"
#include "core/suite/SuiteMetrics.h"

namespace kwb::suite {

struct SuiteReport {
  std::filesystem::path dir;
  SuitePlan plan;
  std::vector<SampleOutcome> samples;  // samples with a session, in plan order
  std::vector<std::string> notRun;     // "task sample-k" planned without a session yet
  std::vector<std::string> problems;   // sessions or files that could not be read, with why
  std::map<std::string, double> expertUs;
  std::map<std::string, nlohmann::json> expert;  // task -> DIR/expert/<task>.json
  SuiteMetrics metrics;
  // Where the numbers ran, in words: "emulator estimate (cost model)" unless a device profile exists.
  std::string timingSource;
};

// Throws std::runtime_error when DIR holds no readable plan; unreadable sessions become `problems`.
SuiteReport loadSuiteReport(const std::filesystem::path& suiteDir, const MetricsOptions& options = {});

nlohmann::json suiteReportJson(const SuiteReport& report);
std::string suiteJunitXml(const SuiteReport& report);

// report.json, report.xml and report.html in DIR (each written atomically); returns their paths.
std::vector<std::filesystem::path> writeSuiteReports(const SuiteReport& report);

// XML text escaping (&, <, >, ", ') for the JUnit and HTML writers.
std::string escapeXml(const std::string& text);

}  // namespace kwb::suite
