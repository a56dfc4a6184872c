// SPDX-License-Identifier: MIT
#pragma once
// When the start of an output is never written while the rest is, every block wrote one share too far
// along: the first block's GM range does not start at the output's start. The symptom is in the output;
// the cause is where the per-block offset is computed (typically `start = share * GetBlockIdx()` with a
// stray `+ 1`). This finds that line from the SetGlobalBuffer the trusted records say the output's writes
// went through, following the offset's variables back to the assignment that reads GetBlockIdx()
// (docs/emulator.md, "Cause lines"; issue 15 item 1). It never guesses past an ambiguity: without such an
// assignment the finding sits at the SetGlobalBuffer itself.

#include <optional>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"
#include "core/verify/Verification.h"

namespace kwb::verify {

// The line that computes a block's GM offset for the SetGlobalBuffer call on `setLine` of `source`: the
// call's own line when its first argument calls GetBlockIdx(), else the assignment (up to three
// assignments back) of a variable of that argument whose value calls GetBlockIdx(); nullopt when neither.
std::optional<int> blockOffsetLine(const std::string& source, int setLine);

// A `wrong-answer` diagnostic at the offset's origin (source "verifier") for the first failing output
// whose never-written elements are exactly a prefix of it; none when no output fails that way or the
// SetGlobalBuffer of its writes is unknown.
std::optional<Diagnostic> blockRangeShiftCause(const std::vector<CaseCheck>& cases,
                                               const std::string& candidateName,
                                               const std::string& candidateSource);

}  // namespace kwb::verify
