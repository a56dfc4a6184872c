// SPDX-License-Identifier: MIT
#include "core/emulator/EmulatorCompilerOutput.h"

#include <cctype>
#include <optional>
#include <set>
#include <vector>

#include "core/diag/CompilerOutputLines.h"
#include "core/diag/DiagnosticLocation.h"
#include "core/diag/TextLines.h"

namespace kwb {

namespace {

using namespace textlines;

enum class Kind {
  IncludeChain,  // "In file included from F:L," / "                 from F:L:"
  Scope,         // "F: In function ‘…’:", "F: In instantiation of ‘…’:", "F: At global scope:"
  Chain,  // "F:L:C:   required from here", "…   required from ‘…’", "…   in ‘constexpr’ expansion of"
  Primary,  // error / warning / fatal error
  Note,
  Gutter,  // "   16 | code", "      |   ^~~"
  Other
};

struct Line {
  std::string_view text;
  Kind kind = Kind::Other;
  std::string file;  // where it points ("" for gutters and others)
  int line = 0;
  int column = 0;
  std::string_view message;  // after "severity: " for primaries and notes
  Severity severity = Severity::Error;
};

std::string_view scopeFile(std::string_view text) {
  for (std::string_view marker : {": In ", ": At global scope:"}) {
    const auto p = text.find(marker);
    if (p != std::string_view::npos && p > 0 && !contains(text.substr(0, p), " ")) return text.substr(0, p);
  }
  return {};
}

Line classify(std::string_view text) {
  Line l;
  l.text = text;
  const std::string_view body = trimLeft(text);
  if (startsWith(text, "In file included from ") ||
      (startsWith(body, "from ") && text.size() > body.size())) {
    l.kind = Kind::IncludeChain;
    std::string_view rest = body.substr(startsWith(body, "from ") ? 5 : 0);
    if (startsWith(text, "In file included from ")) rest = text.substr(22);
    while (!rest.empty() && (rest.back() == ',' || rest.back() == ':')) rest.remove_suffix(1);
    const auto loc = compiler_lines::parseLocation(rest);
    l.file = loc.file;
    l.line = loc.line;
    return l;
  }
  if (compiler_lines::isGutterLine(text)) {
    l.kind = Kind::Gutter;
    return l;
  }
  if (const auto h = compiler_lines::findHeader(text); h && !h->prefix.empty()) {
    const auto loc = compiler_lines::parseLocation(h->prefix);
    l.kind = h->severity == Severity::Note ? Kind::Note : Kind::Primary;
    l.severity = h->severity;
    l.file = loc.file;
    l.line = loc.line;
    l.column = loc.column;
    l.message = h->message;
    return l;
  }
  if (const auto loc = leadingLocation(text)) {
    const auto colon = text.find(": ", loc->file.size());
    const std::string_view after =
        colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
    const std::string_view what = trimLeft(after);
    if (startsWith(what, "required ") || startsWith(what, "recursively required ") ||
        startsWith(what, "in ")) {
      l.kind = Kind::Chain;
      l.file = loc->file;
      l.line = loc->line;
      l.column = loc->column;
      return l;
    }
  }
  if (const std::string_view f = scopeFile(text); !f.empty()) {
    l.kind = Kind::Scope;
    l.file = std::string(f);
    return l;
  }
  return l;
}

// The emulator's own names: its namespaces, its macros and its helpers (Kwb...), as C++ names (a file
// called kwb_sim_test.cpp is not one).
bool namesInternal(std::string_view s) {
  if (contains(s, "kwb_sim::") || contains(s, "kwb_op::") || contains(s, "KWB_SIM_")) return true;
  for (std::size_t p = s.find("Kwb"); p != std::string_view::npos; p = s.find("Kwb", p + 1)) {
    const char before = p == 0 ? ' ' : s[p - 1];
    const bool identStart = !(std::isalnum(static_cast<unsigned char>(before)) || before == '_');
    if (identStart) return true;
  }
  return false;
}

bool isOpenQuote(std::string_view s, std::size_t p, std::size_t& width) {
  if (s.substr(p, 3) == "\xE2\x80\x98") {  // ‘
    width = 3;
    return true;
  }
  if (p < s.size() && s[p] == '\'') {
    width = 1;
    return true;
  }
  return false;
}

// The quoted name at the start of `s` (‘X’ or 'X') and what follows it.
std::optional<std::pair<std::string_view, std::string_view>> leadingQuoted(std::string_view s) {
  std::size_t w = 0;
  if (!isOpenQuote(s, 0, w)) return std::nullopt;
  const std::string_view close = w == 3 ? "\xE2\x80\x99" : "'";
  const auto end = s.find(close, w);
  if (end == std::string_view::npos) return std::nullopt;
  return std::make_pair(s.substr(w, end - w), s.substr(end + close.size()));
}

std::string replaceAll(std::string s, std::string_view from, std::string_view to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

// The message without suggestions of emulator internals and without the hidden source-location parameter
// every emulated API carries (its default argument records the user's line).
std::string sanitize(std::string_view message) {
  std::string m(message);
  for (std::string_view open : {"; did you mean \xE2\x80\x98", "; did you mean '"}) {
    const auto p = m.find(open);
    if (p == std::string::npos) continue;
    const auto q = m.find('?', p);
    const std::string suggestion = m.substr(p, q == std::string::npos ? std::string::npos : q + 1 - p);
    if (namesInternal(suggestion)) m.erase(p, suggestion.size());
  }
  m = replaceAll(std::move(m), ", kwb_sim::SrcLoc", "");
  m = replaceAll(std::move(m), "kwb_sim::SrcLoc", "");
  // The element types are the emulator's classes; the user knows them by their Ascend C names.
  m = replaceAll(std::move(m), "kwb_sim::half", "half");
  m = replaceAll(std::move(m), "kwb_sim::bfloat16", "bfloat16_t");
  if (const auto q = leadingQuoted(m)) {
    const std::string_view rest = q->second;
    if (startsWith(rest, " is not a member of ") && contains(rest, "AscendC") && !contains(rest, "::") &&
        !namesInternal(q->first))
      return "`AscendC::" + std::string(q->first) +
             "` is not emulated yet, or is not an Ascend C API (docs/emulator.md, \"Supported API\", lists "
             "what "
             "the kwb emulator provides)";
  }
  return m;
}

// A refusal of the emulator's headers: the text after "static assertion failed: " / "#error ".
std::optional<std::string_view> refusal(std::string_view message) {
  for (std::string_view lead : {"static assertion failed: ", "#error "}) {
    if (startsWith(message, lead) && startsWith(message.substr(lead.size()), "kwb-sim: "))
      return message.substr(lead.size());
  }
  return std::nullopt;
}

std::string locationText(const std::string& file, int line, int column) {
  std::string s = file + ":" + std::to_string(line);
  if (column > 0) s += ":" + std::to_string(column);
  return s;
}

std::string_view severityWord(Severity s) {
  switch (s) {
    case Severity::Fatal:
      return "fatal error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
    case Severity::Error:
      break;
  }
  return "error";
}

class Cleaner {
 public:
  explicit Cleaner(std::string_view includeDir) : headers_(includeDir) {
    while (headers_.size() > 1 && headers_.back() == '/') headers_.remove_suffix(1);
  }

  std::string run(std::string_view output) {
    std::vector<Line> lines;
    for (std::string_view t : splitLines(output)) lines.push_back(classify(t));
    std::size_t k = 0;
    while (k < lines.size()) {
      // One diagnostic: its context lines, the error/warning, then its notes and excerpts.
      std::size_t start = k;
      while (k < lines.size() && isContext(lines[k].kind)) ++k;
      if (k == lines.size() || lines[k].kind != Kind::Primary) {
        // Context without a diagnostic (or a stray note/excerpt/other line): passed through, unless it
        // leads to a line about the emulator's headers, which goes with its whole context.
        const std::size_t end = k < lines.size() ? k + 1 : k;
        const bool dropRun = k < lines.size() && k > start && !keeps(lines[k]);
        for (std::size_t i = start; i < end; ++i)
          if (!dropRun) passThrough(lines[i]);
        k = end;
        continue;
      }
      const std::size_t primary = k++;
      while (k < lines.size()) {
        const Kind kind = lines[k].kind;
        if (kind == Kind::Note || kind == Kind::Gutter ||
            (kind == Kind::Chain && !startsNewContext(lines, k))) {
          ++k;
          continue;
        }
        // g++ names the header of a note's location first ("In file included from ..."): part of the note.
        std::size_t j = k;
        while (j < lines.size() && lines[j].kind == Kind::IncludeChain) ++j;
        if (j == k || j == lines.size() || lines[j].kind != Kind::Note) break;
        k = j;
      }
      emitGroup(lines, start, primary, k);
    }
    return out_;
  }

 private:
  static bool isContext(Kind k) { return k == Kind::IncludeChain || k == Kind::Scope || k == Kind::Chain; }
  // A chain line after a diagnostic's notes belongs to the next diagnostic when a scope line precedes it.
  static bool startsNewContext(const std::vector<Line>& lines, std::size_t k) {
    return k > 0 && lines[k - 1].kind == Kind::Scope;
  }

  bool inHeaders(std::string_view file) const {
    return !headers_.empty() && file.size() > headers_.size() &&
           file.substr(0, headers_.size()) == headers_ && file[headers_.size()] == '/';
  }

  void emit(std::string_view text) {
    out_.append(text);
    out_.push_back('\n');
  }

  bool keeps(const Line& l) const {
    if (l.kind == Kind::Gutter || namesInternal(l.text)) return false;
    return l.kind == Kind::Other || l.kind == Kind::Primary || !inHeaders(l.file);
  }
  void passThrough(const Line& l) {
    if (keeps(l)) emit(l.text);
  }

  void emitGroup(const std::vector<Line>& lines, std::size_t start, std::size_t primary, std::size_t end) {
    const Line& p = lines[primary];
    // Where the user reads it: the diagnostic's own line, or the innermost user frame of its chain.
    const Line* at = inHeaders(p.file) ? nullptr : &p;
    if (!at)
      for (std::size_t i = start; i < end && !at; ++i)
        if (lines[i].kind == Kind::Chain && !inHeaders(lines[i].file) && lines[i].line > 0) at = &lines[i];
    if (!at) {
      // No user frame (an error in the headers themselves): pass it on as g++ printed it.
      for (std::size_t i = start; i < end; ++i) emit(lines[i].text);
      return;
    }
    const std::string where = locationText(at->file, at->line, at->column);
    const bool moved = at != &p;
    if (const auto r = refusal(p.message); r && moved) {
      const std::string one = where + ": error: " + std::string(*r);
      if (refusals_.insert(one).second) emit(one);
      return;
    }
    // Context: the user's own scope lines and include chains; for a moved diagnostic the outer user frames.
    for (std::size_t i = start; i < primary; ++i) {
      const Line& c = lines[i];
      if (inHeaders(c.file) || &c == at || namesInternal(c.text)) continue;
      if (moved && c.kind == Kind::IncludeChain) continue;
      emit(c.text);
    }
    std::string message = sanitize(p.message);
    if (namesInternal(message))
      message =
          "the arguments of this call do not match the Ascend C API as the kwb emulator declares it "
          "(docs/emulator.md, \"Supported API\")";
    if (!moved && message == p.message)
      emit(p.text);
    else
      emit(where + ": " + std::string(severityWord(p.severity)) + ": " + message);
    bool keepExcerpt = !moved;
    bool droppedCandidate = false;
    for (std::size_t i = primary + 1; i < end; ++i) {
      const Line& l = lines[i];
      if (l.kind == Kind::Gutter) {
        if (keepExcerpt) emit(l.text);
        continue;
      }
      keepExcerpt = false;
      if (l.kind == Kind::IncludeChain) continue;
      if (l.kind != Kind::Note) {
        if (!inHeaders(l.file) && !namesInternal(l.text)) emit(l.text);
        continue;
      }
      const std::string note = sanitize(l.message);
      if (namesInternal(note) || startsWith(note, "in definition of macro") ||
          startsWith(note, "in expansion of macro")) {
        droppedCandidate = droppedCandidate || contains(note, "candidate");
        continue;
      }
      // A note inside the headers (a candidate's declaration, why deduction failed) is kept at the user's
      // line; its excerpt showed the header and is dropped.
      const bool own = !inHeaders(l.file);
      if (own && note == l.message)
        emit(l.text);
      else
        emit((own ? locationText(l.file, l.line, l.column) : where) + ": note: " + note);
      keepExcerpt = own;
    }
    if (droppedCandidate)
      emit(where +
           ": note: the emulator declares this API only in the forms docs/emulator.md (\"Supported API\") "
           "lists; check the argument types and count against the Ascend C API reference");
  }

  std::string_view headers_;
  std::string out_;
  std::set<std::string> refusals_;
};

}  // namespace

std::string cleanEmulatorCompilerOutput(std::string_view output, std::string_view emulatorIncludeDir) {
  return Cleaner(emulatorIncludeDir).run(output);
}

}  // namespace kwb
