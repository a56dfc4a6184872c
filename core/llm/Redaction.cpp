#include "core/llm/Redaction.h"

#include <algorithm>
#include <array>
#include <cctype>

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
  for (char c : body.substr(0, std::min(body.size(), maxChars)))
    out.push_back(std::iscntrl(static_cast<unsigned char>(c)) ? ' ' : c);
  if (body.size() > maxChars) out += "...";
  return out;
}

}  // namespace kwb
