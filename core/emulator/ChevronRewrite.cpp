// SPDX-License-Identifier: MIT
#include "core/emulator/ChevronRewrite.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

namespace kwb {

std::vector<bool> sourceCodeMask(std::string_view s) {
  std::vector<bool> code(s.size(), true);
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto mark = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < n; ++k) code[k] = false;
  };
  while (i < n) {
    const char c = s[i];
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      std::size_t e = s.find('\n', i);
      if (e == std::string_view::npos) e = n;
      mark(i, e);
      i = e;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      std::size_t e = s.find("*/", i + 2);
      e = e == std::string_view::npos ? n : e + 2;
      mark(i, e);
      i = e;
    } else if (c == 'R' && i + 1 < n && s[i + 1] == '"' &&
               (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_'))) {
      const std::size_t open = s.find('(', i + 2);
      if (open == std::string_view::npos) {
        mark(i, n);
        break;
      }
      const std::string close = ")" + std::string(s.substr(i + 2, open - i - 2)) + "\"";
      std::size_t e = s.find(close, open + 1);
      e = e == std::string_view::npos ? n : e + close.size();
      mark(i, e);
      i = e;
    } else if (c == '"' || c == '\'') {
      // A digit separator (1'000) is not a character literal.
      if (c == '\'' && i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1]))) {
        ++i;
        continue;
      }
      std::size_t e = i + 1;
      while (e < n && s[e] != c && s[e] != '\n') e += s[e] == '\\' ? 2 : 1;
      e = std::min(n, e + 1);
      mark(i, e);
      i = e;
    } else {
      ++i;
    }
  }
  return code;
}

namespace {

std::vector<bool> codeMask(std::string_view s) {
  return sourceCodeMask(s);
}

bool isIdent(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

int lineOf(std::string_view s, std::size_t pos) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

// Start of the kernel expression that ends right before `end` (a name, `ns::name`, `name<T, ...>`).
std::size_t calleeStart(std::string_view s, std::size_t end) {
  std::size_t j = end;
  while (j > 0 && std::isspace(static_cast<unsigned char>(s[j - 1]))) --j;
  const std::size_t last = j;
  bool templateAllowed = true;
  while (j > 0) {
    if (templateAllowed && s[j - 1] == '>') {
      int depth = 0;
      std::size_t k = j;
      while (k > 0) {
        --k;
        if (s[k] == '>') ++depth;
        if (s[k] == '<' && --depth == 0) break;
        if (s[k] == ';' || s[k] == '{' || s[k] == '}') return last;
      }
      if (depth != 0) return last;
      j = k;
      templateAllowed = false;
    } else if (isIdent(s[j - 1])) {
      while (j > 0 && isIdent(s[j - 1])) --j;
      if (j >= 2 && s[j - 1] == ':' && s[j - 2] == ':') {
        j -= 2;
        templateAllowed = true;
      } else {
        break;
      }
    } else {
      break;
    }
  }
  return j;
}

// The kernel's own name in a launch expression: `ns::kernel<T, 8>` -> `kernel`.
std::string_view kernelBaseName(std::string_view kernel) {
  std::size_t end = kernel.find('<');
  if (end == std::string_view::npos) end = kernel.size();
  while (end > 0 && std::isspace(static_cast<unsigned char>(kernel[end - 1]))) --end;
  std::size_t start = end;
  while (start > 0 && isIdent(kernel[start - 1])) --start;
  return kernel.substr(start, end - start);
}

// Reads a decimal number at `pos` (after blanks); npos when there is none.
std::size_t readNumber(std::string_view s, std::size_t pos, int& value) {
  while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  const std::size_t first = pos;
  value = 0;
  while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])) && pos - first < 4)
    value = value * 10 + (s[pos++] - '0');
  return pos == first ? std::string_view::npos : pos;
}

// The `__mix__(cube, vector)` ratio the source declares on the kernel named `base` (docs/emulator.md,
// "Launch forms"): the function name before the first `(` after the attribute, within one declaration.
// Its section attribute, which normally tells the runtime the ratio, is ignored on a template kernel's
// instances, so the launch passes the ratio itself. {-1, -1} when the source declares none.
std::pair<int, int> declaredMix(std::string_view s, const std::vector<bool>& code, std::string_view base) {
  constexpr std::string_view kMix = "__mix__";
  for (std::size_t p = s.find(kMix); p != std::string_view::npos; p = s.find(kMix, p + 1)) {
    if (!code[p] || (p > 0 && isIdent(s[p - 1])) ||
        (p + kMix.size() < s.size() && isIdent(s[p + kMix.size()])))
      continue;
    std::size_t k = p + kMix.size();
    while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
    if (k >= s.size() || s[k] != '(') continue;
    int cube = 0, vector = 0;
    k = readNumber(s, k + 1, cube);
    while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
    if (k >= s.size() || s[k] != ',') continue;
    k = readNumber(s, k + 1, vector);
    while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
    if (k >= s.size() || s[k] != ')') continue;
    std::size_t open = k + 1;
    while (open < s.size() && !(code[open] && (s[open] == '(' || s[open] == ';' || s[open] == '{'))) ++open;
    if (open >= s.size() || s[open] != '(') continue;
    std::size_t nameEnd = open;
    while (nameEnd > k && std::isspace(static_cast<unsigned char>(s[nameEnd - 1]))) --nameEnd;
    std::size_t nameStart = nameEnd;
    while (nameStart > k && isIdent(s[nameStart - 1])) --nameStart;
    if (s.substr(nameStart, nameEnd - nameStart) == base) return {cube, vector};
  }
  return {-1, -1};
}

// How a launch of `kernel` is written, for the refusals.
std::string launchForm(const std::string& kernel) {
  return kernel + "<<<blockDim, l2ctrl, stream>>>(arguments...)";
}

// The launcher is declared by the emulator's host header, which the source may not include itself (an
// `.asc` that includes only kernel_operator.h); the #line after it restores the user's numbering.
std::string prologue(const std::string& fileName) {
  return "#include \"kwb_sim/host.h\"\n#line 1 " + cString(fileName) + "\n";
}

}  // namespace

ChevronRewrite rewriteChevronLaunches(std::string_view s, const std::string& fileName) {
  ChevronRewrite r;
  const std::vector<bool> code = codeMask(s);
  r.text = prologue(fileName);
  r.text.reserve(s.size() + 64);
  std::size_t copied = 0;
  std::size_t i = 0;
  while (i + 3 <= s.size()) {
    if (!(code[i] && s.compare(i, 3, "<<<") == 0)) {
      ++i;
      continue;
    }
    const int line = lineOf(s, i);
    const std::size_t start = calleeStart(s, i);
    std::size_t calleeEnd = i;
    while (calleeEnd > start && std::isspace(static_cast<unsigned char>(s[calleeEnd - 1]))) --calleeEnd;
    if (start == calleeEnd || start < copied) {
      r.errors.push_back({line, "a <<<blockDim, l2ctrl, stream>>> launch needs the kernel's name before it"});
      i += 3;
      continue;
    }
    // The closing >>> at bracket depth 0; the launch's values are split at depth-0 commas.
    int depth = 0;
    std::size_t k = i + 3;
    std::size_t close = std::string_view::npos;
    int values = 1;
    bool emptyValue = true;
    for (; k < s.size(); ++k) {
      if (!code[k]) continue;
      const char c = s[k];
      if (depth == 0 && s.compare(k, 3, ">>>") == 0) {
        close = k;
        break;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if (depth < 0 || (depth == 0 && c == ';')) break;
      if (depth == 0 && c == ',') ++values;
      if (!std::isspace(static_cast<unsigned char>(c))) emptyValue = false;
    }
    const std::string kernel(s.substr(start, calleeEnd - start));
    if (close == std::string_view::npos) {
      r.errors.push_back({line, "the launch of " + kernel + " opens <<< but has no matching >>>"});
      i += 3;
      continue;
    }
    if (emptyValue || values != 3) {
      std::string message = "the launch of " + kernel;
      message += " gives " + std::to_string(emptyValue ? 0 : values);
      message += " launch values; a kernel launch takes three: ";
      message += launchForm(kernel);
      r.errors.push_back({line, message});
      i = close + 3;
      continue;
    }
    std::size_t after = close + 3;
    while (after < s.size() && std::isspace(static_cast<unsigned char>(s[after]))) ++after;
    if (after >= s.size() || s[after] != '(') {
      std::string message = "the launch of " + kernel;
      message += " must be followed by the kernel's argument list: ";
      message += launchForm(kernel);
      r.errors.push_back({line, message});
      i = close + 3;
      continue;
    }
    r.text.append(s.substr(copied, start - copied));
    r.text +=
        "::kwb_sim::chevronLaunch(" + cString(kernel) + ", " + kernel + ", ::kwb_sim::SrcLoc::current(), ";
    if (const auto [cube, vector] = declaredMix(s, code, kernelBaseName(kernel)); cube >= 0)
      r.text += "::kwb_sim::MixDecl{" + std::to_string(cube) + ", " + std::to_string(vector) + "}, ";
    r.text.append(s.substr(i + 3, close - i - 3));
    r.text += ")";
    // Line breaks between the name and <<< stay, so that the lines below keep their numbers.
    const auto gap = s.substr(calleeEnd, i - calleeEnd);
    r.text.append(static_cast<std::size_t>(std::count(gap.begin(), gap.end(), '\n')), '\n');
    copied = close + 3;
    i = copied;
    ++r.launches;
  }
  r.text.append(s.substr(copied));
  return r;
}

bool needsChevronRewrite(const std::string& fileName, std::string_view source) {
  const bool asc = fileName.size() >= 4 && fileName.compare(fileName.size() - 4, 4, ".asc") == 0;
  if (asc) return true;
  const std::vector<bool> code = codeMask(source);
  for (std::size_t p = source.find("<<<"); p != std::string_view::npos; p = source.find("<<<", p + 1))
    if (code[p]) return true;
  return false;
}

std::string cString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') continue;
    out += c;
  }
  return out + "\"";
}

}  // namespace kwb
