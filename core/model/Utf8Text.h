// SPDX-License-Identifier: MIT
#pragma once
// Text from outside the workbench (LLM replies, compiler and tool output, file contents, HTTP headers)
// may hold bytes that are not UTF-8. JSON output requires UTF-8 (nlohmann::json refuses to dump
// anything else), so such text passes through toValidUtf8 where it enters a model type or a message.
// See docs/reliability.md ("Bad input").

#include <string>
#include <string_view>

namespace kwb {

// True when `text` is well-formed UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF).
bool isValidUtf8(std::string_view text);

// `text` with every ill-formed sequence replaced by U+FFFD (one per maximal bad subpart, the
// Unicode "substitution of maximal subparts" practice) and NUL bytes kept. Valid text comes back as is.
std::string toValidUtf8(std::string_view text);

}  // namespace kwb
