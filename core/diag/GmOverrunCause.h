// SPDX-License-Identifier: MIT
#pragma once
// Moves a GM out-of-bounds finding from the access (the symptom) to the line that caused it, when the
// candidate's source says which one it is (docs/emulator.md, "Cause lines"):
// - an access that starts exactly at the end of its SetGlobalBuffer range is one loop iteration too many:
//   the cause is the `for` around the access (directly, or around the one call of the function holding it);
// - an access that starts inside the range and runs past its end has a wrong length: the cause is the
//   last assignment of the variable the length is made of, when that assignment has no clamp (no `?:`,
//   no min) and is the only candidate.
// Anything else, or any ambiguity, leaves the finding at the access. The access becomes a related
// location with its role.

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"

namespace kwb {

// What the emulator measured (its "gm_range" record field).
struct GmRangeAccess {
  long long first = 0;           // bytes from the range's start to the access's first byte
  std::uint64_t length = 0;      // bytes accessed
  std::uint64_t rangeBytes = 0;  // bytes the range holds
  bool write = false;
};

// `d` sits at the access in the candidate whose text is `lines` (d.line, d.api, d.tensor set). Returns
// true when it was moved to the cause (line, message, excerpt rewritten; the access and the other lines
// involved added to d.related).
bool placeGmOverrunAtCause(Diagnostic& d, const GmRangeAccess& access, const std::vector<std::string>& lines);

}  // namespace kwb
