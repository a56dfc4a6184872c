// SPDX-License-Identifier: MIT
#pragma once
// Timestamps in session files: ISO-8601 UTC with milliseconds ("2025-03-01T12:34:56.789Z"), so they
// sort as text and read the same in every time zone.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace kwb {

class JsonReader;

std::string formatIso8601(std::chrono::system_clock::time_point t);
std::string nowIso8601();
// Accepts "YYYY-MM-DDTHH:MM:SS[.fraction]Z"; nullopt for anything else (offsets other than Z too).
std::optional<std::chrono::system_clock::time_point> parseIso8601(std::string_view text);

// Reads a timestamp string at r (error names the expected form).
std::string readTimestamp(const JsonReader& r);

}  // namespace kwb
