// SPDX-License-Identifier: MIT
#include "core/llm/Redaction.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/model/Utf8Text.h"

namespace kwb {

namespace {

void replaceAll(std::string& s, std::string_view needle) {
  if (needle.empty()) return;
  std::size_t pos = 0;
  while ((pos = s.find(needle, pos)) != std::string::npos) {
    s.replace(pos, needle.size(), kRedacted);
    pos += kRedacted.size();
  }
}

bool iequalsAt(const std::string& s, std::size_t pos, std::string_view word) {
  if (pos + word.size() > s.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[pos + i])) !=
        std::tolower(static_cast<unsigned char>(word[i])))
      return false;
  return true;
}

// Masks the token that follows `marker` (case-insensitive), skipping spaces and an optional ':'.
void maskAfter(std::string& s, std::string_view marker) {
  for (std::size_t pos = 0; pos < s.size(); ++pos) {
    if (!iequalsAt(s, pos, marker)) continue;
    std::size_t start = pos + marker.size();
    while (start < s.size() && (s[start] == ' ' || s[start] == ':' || s[start] == '"')) ++start;
    std::size_t end = start;
    while (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end])) && s[end] != '"' &&
           s[end] != ',' && s[end] != '\'')
      ++end;
    if (end > start && s.compare(start, end - start, kRedacted) != 0)
      s.replace(start, end - start, kRedacted);
    pos = start;
  }
}

}  // namespace

std::string redactSecret(std::string_view text, std::string_view secret) {
  std::string s(text);
  replaceAll(s, secret);
  if (secret.size() >= 12) replaceAll(s, secret.substr(0, 8));  // "sk-abcde...wxyz" style echoes
  if (secret.size() >= 12) replaceAll(s, secret.substr(secret.size() - 6));
  for (std::string_view marker : std::array<std::string_view, 3>{"bearer ", "x-api-key", "api-key:"})
    maskAfter(s, marker);
  return s;
}

std::string bodySnippet(std::string_view body, std::size_t maxChars) {
  std::string out;
  std::size_t n = std::min(body.size(), maxChars);
  // Do not cut a UTF-8 sequence in half (the cut would read as a bad byte).
  while (n < body.size() && n > 0 && (static_cast<unsigned char>(body[n]) & 0xC0) == 0x80) --n;
  for (char c : body.substr(0, n)) out.push_back(std::iscntrl(static_cast<unsigned char>(c)) ? ' ' : c);
  if (body.size() > n) out += "...";
  return toValidUtf8(out);  // servers quote whatever they were sent; messages end up in JSON
}

}  // namespace kwb
