// SPDX-License-Identifier: MIT
#pragma once
// Pass rule per output dtype: an element is wrong when |actual-expected| > atol_eff AND
// |actual-expected| > rtol*|expected|, with atol_eff = atol capped at rtol * max|expected| of the
// output; a single element wrong by more than 10x both bounds fails the case, and the case fails when
// the other wrong elements exceed maxMismatchRatio (core/verify/OutputCheck.h has the exact rule).
// Defaults follow the official samples' verify_result.py (docs/ascend-notes.md §3.4).

#include <nlohmann/json_fwd.hpp>

#include "core/model/DType.h"

namespace kwb {

class JsonReader;

struct Tolerance {
  double atol = 0.0;
  double rtol = 0.0;
  double maxMismatchRatio = 0.0;
  bool operator==(const Tolerance&) const = default;
};

// fp16: rtol 1e-3, atol 1e-5, ratio 1e-3; fp32: 1e-4 / 1e-5 / 1e-4; bf16 (8-bit mantissa, eps 2^-8):
// rtol 4e-3; integers and bool: exact.
Tolerance defaultTolerance(DType t);

// Reads a tolerance object; absent fields take their value from `defaults`. Values must be >= 0 and
// the ratio <= 1.
void read(const JsonReader& r, Tolerance& t, const Tolerance& defaults);

void to_json(nlohmann::json& j, const Tolerance& t);
void from_json(const nlohmann::json& j, Tolerance& t);

}  // namespace kwb
