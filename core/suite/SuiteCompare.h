// SPDX-License-Identifier: MIT
#pragma once
// Two suite runs side by side (kwb suite compare A B; docs/suites.md, "Comparing runs"): every metric of
// the overall row and of each task both reports have, with B - A. Works on report.json documents, so a
// run can be compared with one from another machine.

#include <string>

#include <nlohmann/json.hpp>

namespace kwb::suite {

// {"a": label, "b": label, "timing_source": {"a", "b"}, "rows": [{"group", "metric", "a", "b", "delta"}]}.
// Throws std::runtime_error naming the report and the key when a document is not a suite report.
nlohmann::json compareSuiteReports(const nlohmann::json& a, const nlohmann::json& b,
                                   const std::string& labelA, const std::string& labelB);

// The comparison as an aligned text table.
std::string renderSuiteComparison(const nlohmann::json& comparison);

}  // namespace kwb::suite
