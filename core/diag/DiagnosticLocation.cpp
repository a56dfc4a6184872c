// SPDX-License-Identifier: MIT
#include "core/diag/DiagnosticLocation.h"

#include <algorithm>
#include <cctype>
#include <cstddef>

#include "core/diag/TextLines.h"

namespace kwb {

using namespace textlines;

std::optional<LeadingLocation> leadingLocation(std::string_view text) {
  if (text.empty() || isSpace(text.front())) return std::nullopt;
  for (std::size_t p = 1; p + 1 < text.size(); ++p) {
    if (text[p] != ':' || !isDigit(text[p + 1])) continue;
    const auto file = text.substr(0, p);
    if (contains(file, ": ")) return std::nullopt;
    std::size_t q = p + 1;
    while (q < text.size() && isDigit(text[q])) ++q;
    if (q >= text.size() || text[q] != ':') continue;
    const auto line = digits(text.substr(p + 1, q - p - 1));
    if (!line) continue;
    LeadingLocation loc{std::string(file), *line, 0};
    std::size_t r = q + 1;
    while (r < text.size() && isDigit(text[r])) ++r;
    if (r > q + 1 && r < text.size() && text[r] == ':')
      loc.column = digits(text.substr(q + 1, r - q - 1)).value_or(0);
    return loc;
  }
  return std::nullopt;
}

std::string makeSourceExcerpt(std::string_view sourceText, int line, int column, int contextLines) {
  const auto lines = splitLines(sourceText);
  if (line < 1 || line > static_cast<int>(lines.size())) return {};
  contextLines = std::max(0, contextLines);
  const int first = std::max(1, line - contextLines);
  const int last = std::min(static_cast<int>(lines.size()), line + contextLines);
  const int width = std::max<int>(5, static_cast<int>(std::to_string(last).size()));
  std::string out;
  for (int l = first; l <= last; ++l) {
    if (!out.empty()) out += '\n';
    const std::string num = std::to_string(l);
    out += std::string(static_cast<std::size_t>(width) - num.size(), ' ') + num + " | ";
    out += lines[static_cast<std::size_t>(l - 1)];
    if (l == line && column > 0) {
      const std::string_view src = lines[static_cast<std::size_t>(l - 1)];
      const std::size_t upto = std::min(src.size(), static_cast<std::size_t>(column - 1));
      out += '\n' + std::string(static_cast<std::size_t>(width), ' ') + " | ";
      for (std::size_t k = 0; k < upto; ++k) out += src[k] == '\t' ? '\t' : ' ';
      out += '^';
    }
  }
  return out;
}

bool sameSourceFile(std::string_view a, std::string_view b) {
  while (startsWith(a, "./")) a.remove_prefix(2);
  while (startsWith(b, "./")) b.remove_prefix(2);
  if (a.empty() || b.empty()) return false;
  if (a == b) return true;
  if (a.size() > b.size()) std::swap(a, b);
  return b.size() > a.size() && b.substr(b.size() - a.size()) == a && b[b.size() - a.size() - 1] == '/';
}

int addSourceExcerpts(std::vector<Diagnostic>& diagnostics, std::string_view file,
                      std::string_view sourceText, int contextLines) {
  int changed = 0;
  for (auto& d : diagnostics) {
    if (d.line <= 0 || !d.excerpt.empty() || !sameSourceFile(d.file, file)) continue;
    d.excerpt = makeSourceExcerpt(sourceText, d.line, d.column, contextLines);
    if (!d.excerpt.empty()) ++changed;
  }
  return changed;
}

int relocateToUserCode(std::vector<Diagnostic>& diagnostics,
                       const std::function<bool(std::string_view file)>& isUserFile) {
  int moved = 0;
  for (auto& d : diagnostics) {
    if (d.file.empty() || d.line <= 0 || isUserFile(d.file)) continue;
    for (const auto& note : d.notes) {
      if (!contains(note, "required from") && !contains(note, "requested here")) continue;
      auto loc = leadingLocation(note);
      if (!loc || !isUserFile(loc->file)) continue;
      std::string original = d.file + ":" + std::to_string(d.line);
      if (d.column > 0) original += ":" + std::to_string(d.column);
      d.notes.push_back("reported at " + original);
      d.file = loc->file;
      d.line = loc->line;
      d.column = loc->column;
      d.excerpt.clear();
      ++moved;
      break;
    }
  }
  return moved;
}

namespace {
// 1-based lines where `name(` starts a call or definition (not inside a // comment, not a longer name).
std::vector<int> callLines(std::string_view source, std::string_view name) {
  std::vector<int> lines;
  int lineNo = 1;
  std::size_t begin = 0;
  while (begin <= source.size()) {
    std::size_t end = source.find('\n', begin);
    if (end == std::string_view::npos) end = source.size();
    std::string_view line = source.substr(begin, end - begin);
    if (const auto comment = line.find("//"); comment != std::string_view::npos)
      line = line.substr(0, comment);
    for (std::size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
      const bool startsWord =
          at == 0 || !(std::isalnum(static_cast<unsigned char>(line[at - 1])) || line[at - 1] == '_');
      const std::size_t after = at + name.size();
      if (startsWord && after < line.size() && line[after] == '(') {
        lines.push_back(lineNo);
        break;
      }
    }
    begin = end + 1;
    ++lineNo;
  }
  return lines;
}
}  // namespace

int locateTilingCalls(std::vector<Diagnostic>& diagnostics, std::string_view file,
                      std::string_view sourceText) {
  int located = 0;
  for (auto& d : diagnostics) {
    if (d.source != "harness" || !d.file.empty() || d.line > 0 || !d.api) continue;
    if (*d.api != "kwb_set_block_dim" && *d.api != "kwb_set_workspace" && *d.api != "kwb_tiling") continue;
    const auto lines = callLines(sourceText, *d.api);
    if (lines.size() != 1) continue;
    d.file = std::string(file);
    d.line = lines.front();
    d.excerpt = makeSourceExcerpt(sourceText, d.line, 0);
    ++located;
  }
  return located;
}

}  // namespace kwb
