// SPDX-License-Identifier: MIT
#include "core/diag/CompilerOutputLines.h"

#include <array>

#include "core/diag/TextLines.h"

namespace kwb::compiler_lines {

using namespace textlines;

Location parseLocation(std::string_view prefix) {
  Location loc;
  if (!prefix.empty() && prefix.back() == ')') {
    const auto open = prefix.rfind('(');
    if (open != std::string_view::npos && open > 0) {
      const auto inside = prefix.substr(open + 1, prefix.size() - open - 2);
      const auto comma = inside.find(',');
      const auto line = digits(inside.substr(0, comma));
      const auto col =
          comma == std::string_view::npos ? std::optional<int>(0) : digits(inside.substr(comma + 1));
      if (line && col) return {std::string(prefix.substr(0, open)), *line, *col, true};
    }
  }
  const auto last = prefix.rfind(':');
  if (last != std::string_view::npos && last > 0) {
    if (const auto n = digits(prefix.substr(last + 1))) {
      const auto head = prefix.substr(0, last);
      const auto prev = head.rfind(':');
      if (prev != std::string_view::npos && prev > 0)
        if (const auto l = digits(head.substr(prev + 1)))
          return {std::string(head.substr(0, prev)), *l, *n, true};
      return {std::string(head), *n, 0, true};
    }
  }
  loc.file = std::string(prefix);
  return loc;
}

bool looksLikeTool(std::string_view prefix) {
  if (prefix.empty() || contains(prefix, " ")) return false;
  const auto slash = prefix.rfind('/');
  const auto base = slash == std::string_view::npos ? prefix : prefix.substr(slash + 1);
  return !base.empty() && (!contains(base, ".") || startsWith(base, "ld."));
}

bool isLinkerName(std::string_view prefix) {
  if (prefix.empty() || contains(prefix, " ")) return false;
  const auto slash = prefix.rfind('/');
  const auto base = prefix.substr(slash == std::string_view::npos ? 0 : slash + 1);
  static constexpr std::array names{"ld", "ld.bfd", "ld.gold", "ld.lld", "lld", "ld64.lld", "mold", "gold"};
  for (std::string_view n : names)
    if (base == n) return true;
  return base.size() > 3 && base.substr(base.size() - 3) == "-ld";  // x86_64-linux-gnu-ld
}

bool isLinkerPhrase(std::string_view msg) {
  return startsWith(msg, "undefined reference to") || startsWith(msg, "multiple definition of") ||
         startsWith(msg, "relocation ") || startsWith(msg, "undefined symbol") ||
         contains(msg, "first defined here");
}

std::optional<Header> findHeader(std::string_view line) {
  struct Kw {
    std::string_view word;
    Severity severity;
  };
  static constexpr std::array<Kw, 6> kws{{{"fatal error", Severity::Fatal},
                                          {"catastrophic error", Severity::Fatal},
                                          {"error", Severity::Error},
                                          {"warning", Severity::Warning},
                                          {"note", Severity::Note},
                                          {"remark", Severity::Note}}};
  for (std::size_t p = 0; p < line.size(); ++p) {
    std::size_t start;
    if (p == 0) {
      start = 0;
    } else if (line[p] == ':' && p + 1 < line.size() && line[p + 1] == ' ') {
      start = p + 2;
    } else {
      continue;
    }
    for (const auto& kw : kws) {
      if (!startsWith(line.substr(start), kw.word)) continue;
      std::size_t after = start + kw.word.size();
      Header h;
      h.prefix = p == 0 ? std::string_view{} : line.substr(0, p);
      h.severity = kw.severity;
      if (after < line.size() && line[after] == ':') {
        h.message = trim(line.substr(after + 1));
        return h;
      }
      if (line.substr(after, 2) == " #") {
        const auto colon = line.find(':', after);
        if (colon == std::string_view::npos) continue;
        h.code = line.substr(after + 1, colon - after - 1);
        h.message = trim(line.substr(colon + 1));
        return h;
      }
    }
  }
  return std::nullopt;
}

bool isCaretLine(std::string_view s) {
  if (isBlank(s)) return false;
  bool mark = false;
  for (char c : s) {
    if (c == '^' || c == '~')
      mark = true;
    else if (c != ' ' && c != '\t')
      return false;
  }
  return mark;
}

bool isGutterLine(std::string_view s) {
  auto t = trimLeft(s);
  if (t == "......") return true;
  if (startsWith(t, "+++")) t.remove_prefix(3);
  while (!t.empty() && isDigit(t.front())) t.remove_prefix(1);
  t = trimLeft(t);
  return !t.empty() && t.front() == '|' && s.size() > t.size();
}

void applyKwbSimCategory(Diagnostic& d) {
  if (!d.isError()) return;
  const std::string_view msg = d.message;
  const auto at = msg.find("kwb-sim:");
  if (at == std::string_view::npos) return;
  if (!contains(msg, "static_assert") && !contains(msg, "static assertion") && !contains(msg, "#error"))
    return;
  std::string_view rest = trimLeft(msg.substr(at + 8));
  std::size_t n = 0;
  while (n < rest.size() && ((rest[n] >= 'a' && rest[n] <= 'z') || isDigit(rest[n]) || rest[n] == '-')) ++n;
  if (n == 0 || n >= rest.size() || rest[n] != ':') return;
  d.category = std::string(rest.substr(0, n));
  const bool isApi = d.category == category::UnsupportedApi;
  if (!isApi && d.category != category::UnsupportedDtype) return;
  const std::string_view text = trimLeft(rest.substr(n + 1));
  std::size_t k = 0;
  auto identChar = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_' || c == ':';
  };
  while (k < text.size() && identChar(text[k])) ++k;
  std::string_view api = text.substr(0, k);
  while (!api.empty() && api.back() == ':') api.remove_suffix(1);
  // unsupported-dtype names the API only in the emulator's "<API> does not support|accept ..." form.
  if (!isApi && !startsWith(text.substr(k), " does not ")) return;
  if (!api.empty()) d.api = std::string(api);
}

}  // namespace kwb::compiler_lines
