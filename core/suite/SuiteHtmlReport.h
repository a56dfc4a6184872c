// SPDX-License-Identifier: MIT
#pragma once
// The suite report as one self-contained HTML page (docs/suites.md, "Reports"): inline CSS and SVG
// plots, no script and no network, so it opens from a CI artifact or an e-mail. Every table says where
// its times ran (emulator estimate or device).

#include <string>

namespace kwb::suite {

struct SuiteReport;

std::string suiteHtmlReport(const SuiteReport& report);

}  // namespace kwb::suite
