// SPDX-License-Identifier: MIT
#pragma once
// Converts the verifier's detailed result into the model's persisted VerifyReport (core/model), the
// form sessions, prompts and the GUI read: one CaseResult per (case, output tensor) — or one carrying
// the error of a case that could not be checked — with the pattern as "<stable name>[: <detail>]".

#include "core/model/VerifyReport.h"
#include "core/verify/Verification.h"

namespace kwb::verify {

// `verdict` is the evaluation's verdict (a run can fail before verification; then cases is empty).
VerifyReport toVerifyReport(const VerifyResult& result, Verdict verdict);

}  // namespace kwb::verify
