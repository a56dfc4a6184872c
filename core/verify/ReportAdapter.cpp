// SPDX-License-Identifier: MIT
#include "core/verify/ReportAdapter.h"

namespace kwb::verify {

VerifyReport toVerifyReport(const VerifyResult& result, Verdict verdict) {
  VerifyReport r;
  r.verdict = verdict;
  r.seed = result.seed;
  r.diagnostics = result.diagnostics();
  r.summary = result.summary();
  for (const auto& c : result.cases) {
    if (!c.modifiedInputs.empty()) r.inputsUnchanged = false;
    if (!c.error.empty() && c.outputs.empty()) {  // the case could not be checked at all
      CaseResult cr;
      cr.caseName = c.caseName;
      cr.message = c.error;
      r.cases.push_back(std::move(cr));
    }
    for (const auto& t : c.outputs) {
      CaseResult cr;
      cr.caseName = c.caseName;
      cr.tensor = t.tensor;
      cr.passed = t.passed;
      cr.elements = t.elements;
      cr.mismatches = t.mismatches;
      cr.nonFinite = t.nonFinite;
      cr.unwritten = t.unwritten;
      cr.maxAbsError = t.maxAbsError;
      cr.maxRelError = t.maxRelError;
      for (const auto& m : t.firstMismatches)
        cr.firstMismatches.push_back(kwb::Mismatch{m.index, m.expected, m.actual});
      if (t.pattern.kind != PatternKind::None)
        cr.pattern = std::string(patternName(t.pattern.kind)) +
                     (t.pattern.detail.empty() ? "" : ": " + t.pattern.detail);
      cr.message = t.summary;
      r.cases.push_back(std::move(cr));
    }
  }
  return r;
}

}  // namespace kwb::verify
