// SPDX-License-Identifier: MIT
#pragma once
// When an attribute explains which cases fail: every failing case gives it a value other than its
// default and every case with the default passes (a case with another value may pass too), the kernel most
// likely computes with the default wherever the task sets another value (a hard-coded eps or slope). The
// finding names the attribute, its values per case and, when the candidate holds the default as a literal on
// exactly one line outside the tiling's own attribute reads, that line as the cause (docs/emulator.md, "Cause
// lines"; issue 15 item 3).

#include <optional>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"
#include "core/model/Task.h"
#include "core/verify/Verification.h"

namespace kwb::verify {

// The lines of `source` (1-based) holding a numeric literal equal to `value`, literals inside
// kwb_attr_*(...) calls, comments and strings left out.
std::vector<int> linesWithLiteral(const std::string& source, double value);

// A `wrong-answer` diagnostic (source "verifier") when one attribute separates the failing cases from
// the passing ones as described above; none otherwise (no failure, no pass, or no attribute that does).
std::optional<Diagnostic> attributeCorrelation(const Task& task, const std::vector<CaseCheck>& cases,
                                               const std::string& candidateName,
                                               const std::string& candidateSource);

}  // namespace kwb::verify
