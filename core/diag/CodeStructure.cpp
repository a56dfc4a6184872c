// SPDX-License-Identifier: MIT
#include "core/diag/CodeStructure.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/diag/TextLines.h"

namespace kwb {
namespace {

constexpr std::size_t npos = std::string::npos;

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Blanks comments and string / character literals (raw strings included), keeping every newline so
// offsets map to the same lines.
std::string blankNonCode(const std::string& in) {
  std::string out = in;
  std::size_t i = 0;
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < out.size(); ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  while (i < in.size()) {
    const char c = in[i];
    if (c == '/' && i + 1 < in.size() && in[i + 1] == '/') {
      const std::size_t end = in.find('\n', i);
      blank(i, end == npos ? in.size() : end);
      i = end == npos ? in.size() : end;
    } else if (c == '/' && i + 1 < in.size() && in[i + 1] == '*') {
      const std::size_t end = in.find("*/", i + 2);
      const std::size_t stop = end == npos ? in.size() : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c == 'R' && i + 1 < in.size() && in[i + 1] == '"' && (i == 0 || !isIdentChar(in[i - 1]))) {
      const std::size_t open = in.find('(', i + 2);
      if (open == npos) break;
      const std::string close = ")" + in.substr(i + 2, open - i - 2) + "\"";
      const std::size_t end = in.find(close, open);
      const std::size_t stop = end == npos ? in.size() : end + close.size();
      blank(i, stop);
      i = stop;
    } else if (c == '"' || (c == '\'' && (i == 0 || !isIdentChar(in[i - 1])))) {
      // A quote after a digit or letter is a digit separator (1'000), not a character literal.
      std::size_t k = i + 1;
      while (k < in.size() && in[k] != c && in[k] != '\n') k += in[k] == '\\' ? 2 : 1;
      const std::size_t stop = std::min(in.size(), k + 1);
      blank(i, stop);
      i = stop;
    } else {
      ++i;
    }
  }
  return out;
}

std::string squeezed(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : textlines::trim(s)) {
    if (textlines::isSpace(c)) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::size_t skipSpaceForward(const std::string& s, std::size_t i) {
  while (i < s.size() && textlines::isSpace(s[i])) ++i;
  return i;
}

// The last non-space offset before `i` (npos when none).
std::size_t lastNonSpaceBefore(const std::string& s, std::size_t i) {
  while (i > 0) {
    --i;
    if (!textlines::isSpace(s[i])) return i;
  }
  return npos;
}

// The identifier that ends at `end` (inclusive); empty when s[end] is not an identifier character.
std::string identifierEndingAt(const std::string& s, std::size_t end, std::size_t* begin = nullptr) {
  if (end == npos || !isIdentChar(s[end])) return {};
  std::size_t b = end;
  while (b > 0 && isIdentChar(s[b - 1])) --b;
  if (begin) *begin = b;
  return s.substr(b, end - b + 1);
}

bool isControlKeyword(std::string_view w) {
  static constexpr std::array<std::string_view, 7> kw{"if",    "for",    "while", "switch",
                                                      "catch", "return", "sizeof"};
  return std::find(kw.begin(), kw.end(), w) != kw.end();
}

// Offsets of `word` as a whole identifier.
std::vector<std::size_t> wordsIn(const std::string& s, const std::string& word, std::size_t from = 0,
                                 std::size_t to = npos) {
  std::vector<std::size_t> out;
  if (word.empty()) return out;
  to = std::min(to, s.size());
  for (std::size_t p = s.find(word, from); p != npos && p < to; p = s.find(word, p + 1)) {
    const bool startOk = p == 0 || !isIdentChar(s[p - 1]);
    const bool endOk = p + word.size() >= s.size() || !isIdentChar(s[p + word.size()]);
    if (startOk && endOk) out.push_back(p);
  }
  return out;
}

// A '<' right after an identifier whose '>' comes before anything that ends a comparison's operand
// (static_cast<uint32_t>(..), DataCopyPadExtParams<half>{..}); `n < m ? n : m` is a comparison.
bool opensTemplate(const std::string& s, std::size_t i) {
  const std::size_t before = lastNonSpaceBefore(s, i);
  if (before == npos || !isIdentChar(s[before])) return false;
  for (std::size_t k = i + 1; k < s.size(); ++k) {
    const char c = s[k];
    if (c == '>') return true;
    if (c == ',' || c == ';' || c == ')' || c == '(' || c == '?' || c == '{' || c == '}' || c == '&' ||
        c == '|' || c == '<')
      return false;
  }
  return false;
}

// Splits [open+1, close) at top-level commas.
std::vector<std::string> splitTopLevel(const CodeText& text, std::size_t open, std::size_t close) {
  std::vector<std::string> out;
  const std::string& s = text.code();
  std::size_t start = open + 1;
  int angle = 0;
  for (std::size_t i = open + 1; i < close; ++i) {
    const char c = s[i];
    if (c == '(' || c == '[' || c == '{') {
      const std::size_t p = text.partner(i);
      if (p != npos && p < close) i = p;
      continue;
    }
    // Template argument lists (static_cast<uint32_t>, DataCopyPadExtParams<half>) hold no commas that
    // split arguments; a '<' right after an identifier opens one.
    if (c == '<' && opensTemplate(s, i)) ++angle;
    if (c == '>' && angle > 0) --angle;
    if (c == ',' && angle == 0) {
      out.push_back(squeezed(std::string_view(s).substr(start, i - start)));
      start = i + 1;
    }
  }
  const std::string last = squeezed(std::string_view(s).substr(start, close - start));
  if (!last.empty() || !out.empty()) out.push_back(last);
  return out;
}

}  // namespace

CodeText::CodeText(const std::vector<std::string>& lines) {
  std::string joined;
  for (const auto& l : lines) {
    lineStarts_.push_back(joined.size());
    joined += l;
    joined += '\n';
  }
  code_ = blankNonCode(joined);
  partner_.assign(code_.size(), npos);
  std::vector<std::size_t> stack;
  for (std::size_t i = 0; i < code_.size(); ++i) {
    const char c = code_[i];
    if (c == '(' || c == '[' || c == '{') {
      stack.push_back(i);
    } else if (c == ')' || c == ']' || c == '}') {
      const char want = c == ')' ? '(' : (c == ']' ? '[' : '{');
      // An unbalanced closer (bad input) closes nothing; the stack is left as it is.
      if (!stack.empty() && code_[stack.back()] == want) {
        partner_[i] = stack.back();
        partner_[stack.back()] = i;
        stack.pop_back();
      }
    }
  }
}

int CodeText::lineOf(std::size_t pos) const {
  const auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), pos);
  return static_cast<int>(it - lineStarts_.begin());
}

std::optional<std::size_t> CodeText::lineStart(int line) const {
  if (line < 1 || static_cast<std::size_t>(line) > lineStarts_.size()) return std::nullopt;
  return lineStarts_[static_cast<std::size_t>(line) - 1];
}

std::size_t CodeText::partner(std::size_t pos) const {
  return pos < partner_.size() ? partner_[pos] : npos;
}

std::optional<ForLoop> innermostLoopAround(const CodeText& text, std::size_t pos) {
  const std::string& s = text.code();
  std::optional<ForLoop> best;
  for (const std::size_t kw : wordsIn(s, "for")) {
    if (kw >= pos) break;
    const std::size_t open = skipSpaceForward(s, kw + 3);
    if (open >= s.size() || s[open] != '(') continue;
    const std::size_t close = text.partner(open);
    if (close == npos) continue;
    const std::size_t bodyBegin = skipSpaceForward(s, close + 1);
    if (bodyBegin >= s.size()) continue;
    std::size_t bodyEnd = npos;
    if (s[bodyBegin] == '{') {
      bodyEnd = text.partner(bodyBegin);
    } else {
      // A single statement: up to its ';' outside brackets.
      for (std::size_t i = bodyBegin; i < s.size(); ++i) {
        if (s[i] == '(' || s[i] == '[' || s[i] == '{') {
          const std::size_t p = text.partner(i);
          if (p == npos) break;
          i = p;
        } else if (s[i] == ';') {
          bodyEnd = i;
          break;
        }
      }
    }
    if (bodyEnd == npos || pos < bodyBegin || pos > bodyEnd) continue;
    if (!best || kw > best->keyword)
      best = ForLoop{text.lineOf(kw), kw, squeezed(std::string_view(s).substr(open + 1, close - open - 1)),
                     bodyBegin, bodyEnd};
  }
  return best;
}

std::optional<FunctionSpan> functionAround(const CodeText& text, std::size_t pos) {
  const std::string& s = text.code();
  std::optional<FunctionSpan> best;
  for (std::size_t open = 0; open < pos && open < s.size(); ++open) {
    if (s[open] != '{') continue;
    const std::size_t close = text.partner(open);
    if (close == npos || close < pos) continue;
    // Before the '{': ")" possibly followed by qualifiers (const, override, noexcept, final).
    std::size_t k = lastNonSpaceBefore(s, open);
    for (;;) {
      std::size_t b = 0;
      const std::string w = identifierEndingAt(s, k, &b);
      if (w == "const" || w == "override" || w == "noexcept" || w == "final") {
        k = lastNonSpaceBefore(s, b);
        continue;
      }
      break;
    }
    if (k == npos || s[k] != ')') continue;
    const std::size_t paramsOpen = text.partner(k);
    if (paramsOpen == npos) continue;
    std::size_t nameBegin = 0;
    const std::string name = identifierEndingAt(s, lastNonSpaceBefore(s, paramsOpen), &nameBegin);
    if (name.empty() || isControlKeyword(name)) continue;
    FunctionSpan f{name, nameBegin, {}, open, close};
    for (const auto& p : splitTopLevel(text, paramsOpen, k)) {
      const std::string decl = squeezed(p.substr(0, p.find('=')));
      std::size_t end = decl.size();
      while (end > 0 && !isIdentChar(decl[end - 1])) --end;  // "uint32_t n", "const T& x", "int a[]"
      std::size_t b = end;
      while (b > 0 && isIdentChar(decl[b - 1])) --b;
      if (b < end && b > 0)
        f.params.push_back(decl.substr(b, end - b));
      else
        f.params.emplace_back();  // unnamed ("void", "uint32_t")
    }
    if (!best || open > best->bodyBegin) best = f;
  }
  return best;
}

std::vector<std::size_t> callsOf(const CodeText& text, const std::string& name) {
  const std::string& s = text.code();
  std::vector<std::size_t> out;
  for (const std::size_t p : wordsIn(s, name)) {
    const std::size_t open = skipSpaceForward(s, p + name.size());
    if (open >= s.size() || s[open] != '(') continue;
    const std::size_t close = text.partner(open);
    if (close == npos) continue;
    // A definition: the parameter list is followed by a body (possibly after qualifiers).
    std::size_t after = skipSpaceForward(s, close + 1);
    while (after < s.size() && isIdentChar(s[after])) {
      std::size_t e = after;
      while (e < s.size() && isIdentChar(s[e])) ++e;
      const std::string w = s.substr(after, e - after);
      if (w != "const" && w != "override" && w != "noexcept" && w != "final") break;
      after = skipSpaceForward(s, e);
    }
    if (after < s.size() && s[after] == '{') continue;
    // A declaration: a type name right before the function's name ("void CopyIn(uint32_t n);").
    std::size_t b = 0;
    const std::string before = identifierEndingAt(s, lastNonSpaceBefore(s, p), &b);
    if (!before.empty() && before != "return" && before != "else" && before != "do" && before != "case")
      continue;
    out.push_back(p);
  }
  return out;
}

std::optional<std::size_t> callOnLine(const CodeText& text, int line, const std::string& name) {
  const auto begin = text.lineStart(line);
  if (!begin) return std::nullopt;
  const auto end = text.lineStart(line + 1).value_or(text.code().size());
  for (const std::size_t p : wordsIn(text.code(), name, *begin, end)) {
    const std::size_t open = skipSpaceForward(text.code(), p + name.size());
    if (open < text.code().size() && text.code()[open] == '(') return p;
  }
  return std::nullopt;
}

std::vector<std::string> callArguments(const CodeText& text, std::size_t nameAt) {
  const std::string& s = text.code();
  std::size_t open = nameAt;
  while (open < s.size() && isIdentChar(s[open])) ++open;
  open = skipSpaceForward(s, open);
  if (open >= s.size() || s[open] != '(') return {};
  const std::size_t close = text.partner(open);
  if (close == npos) return {};
  return splitTopLevel(text, open, close);
}

std::optional<Assignment> lastAssignment(const CodeText& text, const std::string& var, std::size_t from,
                                         std::size_t before) {
  const std::string& s = text.code();
  std::optional<Assignment> last;
  for (const std::size_t p : wordsIn(s, var, from, before)) {
    const std::size_t prev = lastNonSpaceBefore(s, p);
    if (prev != npos && (s[prev] == '.' || (s[prev] == '>' && prev > 0 && s[prev - 1] == '-'))) continue;
    const std::size_t eq = skipSpaceForward(s, p + var.size());
    if (eq + 1 >= s.size() || s[eq] != '=' || s[eq + 1] == '=') continue;
    // The value: up to the statement's ';' (or the ',' / ')' that ends a for-init or argument).
    std::size_t end = eq + 1;
    for (; end < s.size(); ++end) {
      const char c = s[end];
      if (c == '(' || c == '[' || c == '{') {
        const std::size_t q = text.partner(end);
        if (q == npos) break;
        end = q;
      } else if (c == ';' || c == ',' || c == ')' || c == '}') {
        break;
      }
    }
    last = Assignment{text.lineOf(p), squeezed(std::string_view(s).substr(eq + 1, end - eq - 1))};
  }
  return last;
}

std::vector<std::string> variablesIn(std::string_view e) {
  static constexpr std::array<std::string_view, 40> notVariables{"static_cast", "reinterpret_cast",
                                                                 "const_cast",  "sizeof",
                                                                 "const",       "true",
                                                                 "false",       "nullptr",
                                                                 "int",         "unsigned",
                                                                 "signed",      "long",
                                                                 "short",       "char",
                                                                 "bool",        "float",
                                                                 "double",      "void",
                                                                 "auto",        "int8_t",
                                                                 "int16_t",     "int32_t",
                                                                 "int64_t",     "uint8_t",
                                                                 "uint16_t",    "uint32_t",
                                                                 "uint64_t",    "size_t",
                                                                 "half",        "bfloat16_t",
                                                                 "float16_t",   "this",
                                                                 "std",         "AscendC",
                                                                 "GM_ADDR",     "__gm__",
                                                                 "operator",    "decltype",
                                                                 "alignof",     "typename"};
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < e.size()) {
    if (!isIdentChar(e[i]) || std::isdigit(static_cast<unsigned char>(e[i])) != 0) {
      // Skip numbers whole (1e-5f, 0x20u).
      if (std::isdigit(static_cast<unsigned char>(e[i])) != 0)
        while (i < e.size() && isIdentChar(e[i])) ++i;
      else
        ++i;
      continue;
    }
    std::size_t end = i;
    while (end < e.size() && isIdentChar(e[end])) ++end;
    const std::string word(e.substr(i, end - i));
    std::size_t next = end;
    while (next < e.size() && textlines::isSpace(e[next])) ++next;
    const char after = next < e.size() ? e[next] : '\0';
    const bool member = i > 0 && (e[i - 1] == '.' || (i > 1 && e[i - 1] == '>' && e[i - 2] == '-'));
    const bool scoped = after == ':' || (i > 1 && e[i - 1] == ':');
    if (after != '(' && after != '<' && after != '{' && !member && !scoped &&
        std::find(notVariables.begin(), notVariables.end(), word) == notVariables.end() &&
        std::find(out.begin(), out.end(), word) == out.end())
      out.push_back(word);
    i = end;
  }
  return out;
}

}  // namespace kwb
