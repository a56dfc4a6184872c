// SPDX-License-Identifier: MIT
#include "core/toolchain/RegistrationLexer.h"

#include <cctype>
#include <utility>

namespace kwb::registration_lexer {

// Comments dropped, strings kept (they carry the tensor names), preprocessor lines skipped except for
// their tokens being irrelevant here. Enough C++ lexing for registration code.
std::vector<Tok> lex(const std::string& s) {
  std::vector<Tok> out;
  int line = 1;
  std::size_t i = 0;
  const std::size_t n = s.size();
  bool lineStart = true;
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      lineStart = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') ++line;
        ++i;
      }
      i += 2;
      continue;
    }
    if (c == '#' && lineStart) {  // a directive: skip to the end of the (spliced) line
      while (i < n && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
          ++line;
          ++i;
        }
        ++i;
      }
      continue;
    }
    lineStart = false;
    if (c == '"' || c == '\'') {
      std::string text;
      ++i;
      while (i < n && s[i] != c && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n) ++i;
        text += s[i++];
      }
      ++i;
      out.push_back({c == '"' ? Tok::String : Tok::Number, text, line});
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t b = i;
      while (i < n && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      out.push_back({Tok::Ident, s.substr(b, i - b), line});
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      std::size_t b = i;
      while (i < n && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '\'' ||
                       ((s[i] == '-' || s[i] == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
        ++i;
      out.push_back({Tok::Number, s.substr(b, i - b), line});
      continue;
    }
    if ((c == ':' && i + 1 < n && s[i + 1] == ':') || (c == '-' && i + 1 < n && s[i + 1] == '>')) {
      out.push_back({Tok::Punct, s.substr(i, 2), line});
      i += 2;
      continue;
    }
    out.push_back({Tok::Punct, std::string(1, c), line});
    ++i;
  }
  return out;
}

std::vector<std::string> namespacesOf(const std::vector<Tok>& t) {
  std::vector<std::string> out(t.size());
  std::vector<std::pair<std::string, int>> stack;  // name, depth inside it
  int depth = 0;
  auto current = [&] {
    std::string q;
    for (const auto& [name, d] : stack) q += (q.empty() ? "" : "::") + name;
    return q;
  };
  for (std::size_t k = 0; k < t.size(); ++k) {
    out[k] = current();
    if (t[k].kind == Tok::Ident && t[k].text == "namespace") {
      std::string name;
      std::size_t j = k + 1;
      while (j < t.size() && (t[j].kind == Tok::Ident || t[j].text == "::")) name += t[j++].text;
      if (j < t.size() && t[j].text == "{") {
        ++depth;
        stack.emplace_back(name, depth);
        k = j;
        continue;
      }
    }
    if (t[k].text == "{") ++depth;
    if (t[k].text == "}") {
      if (!stack.empty() && stack.back().second == depth) stack.pop_back();
      --depth;
    }
  }
  return out;
}

std::size_t matching(const std::vector<Tok>& t, std::size_t open) {
  const std::string o = t[open].text;
  const std::string c = o == "(" ? ")" : o == "{" ? "}" : "]";
  int depth = 0;
  for (std::size_t k = open; k < t.size(); ++k) {
    if (t[k].kind != Tok::Punct) continue;
    if (t[k].text == o) ++depth;
    if (t[k].text == c && --depth == 0) return k;
  }
  return t.size();
}

}  // namespace kwb::registration_lexer
