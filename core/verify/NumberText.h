// SPDX-License-Identifier: MIT
#pragma once
// Numbers as the verifier's sentences print them: six significant digits, ratios as percentages with
// three, so every report reads the same.

#include <string>

namespace kwb::verify {

std::string numberText(double v);
std::string percentText(double ratio);

}  // namespace kwb::verify
