// SPDX-License-Identifier: MIT
#pragma once
// Keeps API keys out of every message, log line and transcript.

#include <string>
#include <string_view>

namespace kwb {

inline constexpr std::string_view kRedacted = "[REDACTED]";

// Replaces every occurrence of `secret` (and of its first 8+ characters, which servers like to echo as
// "sk-abcd****") with [REDACTED]; also masks the value of any "Bearer <token>", "x-api-key: <token>" or
// "api-key: <token>" that appears. Empty secret: only the pattern masking applies.
std::string redactSecret(std::string_view text, std::string_view secret);

// First `maxChars` characters of a body, with control characters shown as spaces, bytes that are not
// UTF-8 as U+FFFD and an ellipsis when cut, for error messages that quote what a server sent.
std::string bodySnippet(std::string_view body, std::size_t maxChars = 200);

}  // namespace kwb
