// SPDX-License-Identifier: MIT
#pragma once
// Small text helpers shared by the output parsers in core/diag (compiler, runtime, msprof). They work on
// string_views into the caller's buffer and never allocate except where they return std::string.

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kwb::textlines {

// Splits into lines on '\n', dropping one trailing '\r' per line (CRLF input). A final newline does not
// produce an empty last line.
inline std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

inline bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
inline bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

inline std::string_view trimLeft(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  return s;
}

inline bool isBlank(std::string_view s) {
  return trim(s).empty();
}

inline bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
inline bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// Whole string must be a (possibly signed) decimal integer.
inline std::optional<long long> toInt(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  long long v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// Whole string must be a decimal floating-point number ("1.5", "-2e3", "7").
inline std::optional<double> toDouble(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// A non-empty run of at most 9 decimal digits (line and column numbers, counts); nullopt otherwise.
inline std::optional<int> digits(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  for (char c : s)
    if (!isDigit(c)) return std::nullopt;
  return static_cast<int>(*toInt(s));
}

// Collapses runs of spaces/tabs into one space and trims the ends.
inline std::string squeezeSpaces(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pendingSpace = false;
  for (char c : trim(s)) {
    if (c == ' ' || c == '\t') {
      pendingSpace = true;
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += c;
  }
  return out;
}

}  // namespace kwb::textlines
