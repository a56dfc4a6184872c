// SPDX-License-Identifier: MIT
#include "core/diag/CompilerDiagnosticParser.h"

#include <algorithm>
#include <array>
#include <cstddef>

#include "core/diag/CompilerOutputLines.h"
#include "core/diag/DiagnosticLocation.h"
#include "core/diag/TextLines.h"

namespace kwb {
namespace {

using namespace textlines;
using namespace compiler_lines;
constexpr std::string_view kSource = "compiler";

class Parser {
 public:
  explicit Parser(std::string_view text) : lines_(splitLines(text)) {}

  CompilerOutput run() {
    for (i_ = 0; i_ < lines_.size(); ++i_) handle(lines_[i_]);
    if (out_.linkFailed && linkFailure_) {
      const bool explained =
          std::any_of(out_.diagnostics.begin(), out_.diagnostics.end(),
                      [](const Diagnostic& d) { return d.category == category::LinkError && d.isError(); });
      if (!explained) out_.diagnostics.push_back(*linkFailure_);
    }
    return std::move(out_);
  }

 private:
  enum class Sink { None, Top, Discard };

  std::vector<std::string_view> lines_;
  std::size_t i_ = 0;
  CompilerOutput out_;
  std::optional<std::size_t> lastTop_;
  Sink sink_ = Sink::None;
  bool afterCaret_ = false;
  bool inIncludeBlock_ = false;
  int includeHeads_ = 0;  // "In file included from" lines in the pending block (clang prints one per level)
  std::vector<std::string> pendingIncludes_;
  std::vector<std::string> pendingContext_;  // one-shot context for the next diagnostic
  std::optional<std::string> scope_;         // gcc "In function ..." (until the next scope line)
  std::string chainFile_;                    // file whose include chain is chain_
  std::vector<std::string> chain_;
  std::optional<std::string> linkerScope_;  // GNU ld "in function `main'"
  bool nvccDetectedBlock_ = false;
  std::optional<Diagnostic> linkFailure_;

  Diagnostic* top() { return lastTop_ ? &out_.diagnostics[*lastTop_] : nullptr; }

  std::string_view next() const { return i_ + 1 < lines_.size() ? lines_[i_ + 1] : std::string_view{}; }

  void handle(std::string_view line) {
    if (isBlank(line)) {
      endBlock();
      return;
    }
    // Excerpt lines first: a source line is recognised by the caret line under it, so code that happens
    // to contain "x: error: y" is not mistaken for a diagnostic.
    if (sink_ != Sink::None && handleExcerpt(line)) return;
    afterCaret_ = false;
    if (handleInclude(line)) return;
    inIncludeBlock_ = false;
    if (nvccDetectedBlock_) {
      if (handleNvccDetected(line)) return;
      nvccDetectedBlock_ = false;
    }
    if (handleSummary(line) || handleLinkerPrefixed(line)) return;
    if (auto h = findHeader(line); h && handleHeader(line, *h)) return;
    if (handleScope(line) || handleGccContext(line) || handleNvccDetected(line) || handleLldArrow(line) ||
        handleLinkerBody(line, false) || handleNvccTool(line))
      return;
    sink_ = Sink::None;
  }

  void endBlock() {
    sink_ = Sink::None;
    afterCaret_ = false;
    nvccDetectedBlock_ = false;
  }

  bool handleExcerpt(std::string_view line) {
    const bool keep = sink_ == Sink::Top;
    if (isGutterLine(line) || isCaretLine(line) || isCaretLine(next()) ||
        (afterCaret_ && isSpace(line.front()) && !contains(line, "detected during"))) {
      afterCaret_ = isCaretLine(line);
      if (keep) {
        std::string& ex = out_.diagnostics[*lastTop_].excerpt;
        if (!ex.empty()) ex += '\n';
        ex += line;
      }
      return true;
    }
    return false;
  }

  bool handleSummary(std::string_view line) {
    const auto t = trim(line);
    if (t == "compilation terminated.") {
      out_.terminated = true;
      return true;
    }
    if (startsWith(t, "Remark: The warnings can be suppressed")) return true;
    if (t.empty() || !isDigit(t.front())) return false;
    const bool generated = contains(t, " generated");
    const bool detected = contains(t, " detected in the compilation of");
    if (!generated && !detected) return false;
    // "2 warnings and 2 errors generated." / "1 error generated." / "3 errors detected in ...".
    std::size_t pos = 0;
    bool any = false;
    while (pos < t.size()) {
      std::size_t end = pos;
      while (end < t.size() && isDigit(t[end])) ++end;
      if (end == pos || end >= t.size() || t[end] != ' ') break;
      const auto count = digits(t.substr(pos, end - pos));
      if (!count) break;
      const int n = *count;
      const auto word = t.substr(end + 1);
      if (startsWith(word, "error"))
        out_.reportedErrors = out_.reportedErrors.value_or(0) + n;
      else if (startsWith(word, "warning"))
        out_.reportedWarnings = out_.reportedWarnings.value_or(0) + n;
      else
        break;
      any = true;
      const auto andPos = t.find(" and ", end);
      if (andPos == std::string_view::npos) break;
      pos = andPos + 5;
    }
    if (any) sink_ = Sink::None;
    return any;
  }

  bool handleInclude(std::string_view line) {
    static constexpr std::string_view head = "In file included from ";
    std::string_view where;
    if (startsWith(line, head)) {
      if (!inIncludeBlock_) {
        pendingIncludes_.clear();
        includeHeads_ = 0;
      }
      ++includeHeads_;
      where = line.substr(head.size());
    } else if (inIncludeBlock_ && isSpace(line.front()) && startsWith(trimLeft(line), "from ")) {
      where = trimLeft(line).substr(5);
    } else {
      return false;
    }
    where = trim(where);
    while (!where.empty() && (where.back() == ':' || where.back() == ',')) where.remove_suffix(1);
    pendingIncludes_.push_back("included from " + std::string(where));
    inIncludeBlock_ = true;
    sink_ = Sink::None;
    return true;
  }

  // Include chain for the next diagnostic, innermost first (clang prints outermost first, one line each).
  std::vector<std::string> takeIncludes() {
    std::vector<std::string> chain = std::move(pendingIncludes_);
    if (includeHeads_ > 1) std::reverse(chain.begin(), chain.end());
    pendingIncludes_.clear();
    includeHeads_ = 0;
    inIncludeBlock_ = false;
    return chain;
  }

  Diagnostic& pushTop(Diagnostic d, bool attachChain) {
    auto includes = takeIncludes();
    if (attachChain) {
      if (!includes.empty()) {
        chainFile_ = d.file;
        chain_ = includes;
      } else if (chainFile_.empty() || chainFile_ != d.file) {
        chainFile_.clear();
        chain_.clear();
      }
      std::vector<std::string> notes = chainFile_.empty() ? std::vector<std::string>{} : chain_;
      if (scope_) notes.push_back(*scope_);
      notes.insert(notes.end(), pendingContext_.begin(), pendingContext_.end());
      d.notes.insert(d.notes.begin(), notes.begin(), notes.end());
    }
    pendingContext_.clear();
    out_.diagnostics.push_back(std::move(d));
    lastTop_ = out_.diagnostics.size() - 1;
    sink_ = Sink::Top;
    afterCaret_ = false;
    return out_.diagnostics.back();
  }

  void addNote(std::string note) {
    Diagnostic* t = top();
    if (!t) {
      Diagnostic d;
      d.source = std::string(kSource);
      d.severity = Severity::Note;
      d.category = std::string(category::CompileError);
      d.message = std::move(note);
      pushTop(std::move(d), false);
      return;
    }
    t->notes.insert(t->notes.end(), pendingContext_.begin(), pendingContext_.end());
    pendingContext_.clear();
    t->notes.push_back(std::move(note));
  }

  bool handleHeader(std::string_view line, const Header& h) {
    Location loc = parseLocation(h.prefix);
    const bool tool = !h.prefix.empty() && !loc.hasLine && looksLikeTool(h.prefix);
    if (!h.prefix.empty() && !loc.hasLine && !tool && (contains(h.prefix, " ") || contains(h.prefix, "\"")))
      return false;  // not a diagnostic, just text with ": error:" in it
    std::string message(h.message);
    if (!h.code.empty()) message += " [" + std::string(h.code) + "]";
    if (tool) return handleToolDiagnostic(h.prefix, h.severity, message);
    if (h.severity == Severity::Note && top()) {
      std::string note(trim(line));
      auto includes = takeIncludes();
      if (!includes.empty()) {
        note += " (";
        for (std::size_t k = 0; k < includes.size(); ++k) note += (k ? ", " : "") + includes[k];
        note += ")";
      }
      addNote(std::move(note));
      sink_ = Sink::Discard;
      return true;
    }
    Diagnostic d;
    d.source = std::string(kSource);
    d.severity = h.severity;
    d.category = std::string(category::CompileError);
    d.file = loc.file;
    d.line = loc.line;
    d.column = loc.column;
    d.message = std::move(message);
    applyKwbSimCategory(d);
    pushTop(std::move(d), true);
    linkerScope_.reset();
    return true;
  }

  bool handleToolDiagnostic(std::string_view tool, Severity severity, const std::string& message) {
    const auto slash = tool.rfind('/');
    const std::string name(tool.substr(slash == std::string_view::npos ? 0 : slash + 1));
    Diagnostic d;
    d.source = std::string(kSource);
    d.severity = severity;
    d.category = std::string(category::CompileError);
    d.message = name + ": " + message;
    if ((name == "collect2" && contains(message, "ld returned")) ||
        contains(message, "linker command failed")) {
      out_.linkFailed = true;
      d.category = std::string(category::LinkError);
      linkFailure_ = std::move(d);
      sink_ = Sink::None;
      return true;
    }
    if (severity == Severity::Note && top()) {
      addNote(d.message);
      sink_ = Sink::None;
      return true;
    }
    pushTop(std::move(d), false);
    sink_ = Sink::None;
    return true;
  }

  Diagnostic& pushLink(Severity severity, std::string file, int line, std::string message) {
    Diagnostic d;
    d.source = std::string(kSource);
    d.severity = severity;
    d.category = std::string(category::LinkError);
    d.file = std::move(file);
    d.line = line;
    d.message = std::move(message);
    if (linkerScope_) d.notes.push_back(*linkerScope_);
    Diagnostic& added = pushTop(std::move(d), false);
    sink_ = Sink::None;
    return added;
  }

  // "/usr/bin/ld: ...", "ld.lld: error: ...".
  bool handleLinkerPrefixed(std::string_view line) {
    const auto colon = line.find(": ");
    if (colon == std::string_view::npos || !isLinkerName(line.substr(0, colon))) return false;
    const std::string_view rest = trim(line.substr(colon + 2));
    for (auto [word, sev] : {std::pair{std::string_view("error: "), Severity::Error},
                             std::pair{std::string_view("warning: "), Severity::Warning},
                             std::pair{std::string_view("fatal error: "), Severity::Fatal}}) {
      if (startsWith(rest, word)) {
        pushLink(sev, "", 0, std::string(trim(rest.substr(word.size()))));
        return true;
      }
    }
    // "x.o: in function `main':"
    for (std::string_view marker : {": in function ", ": In function "}) {
      const auto at = rest.find(marker);
      if (at != std::string_view::npos && rest.back() == ':') {
        std::string_view fn = rest.substr(at + marker.size());
        fn.remove_suffix(1);
        linkerScope_ = "in function " + std::string(fn) + " (" + std::string(rest.substr(0, at)) + ")";
        sink_ = Sink::None;
        return true;
      }
    }
    if (handleLinkerBody(rest, true)) return true;
    pushLink(Severity::Error, "", 0, std::string(rest));  // "cannot find -lfoo: No such file or directory"
    return true;
  }

  // "file.cpp:(.text+0x1a): undefined reference to `g'", "/src/file.cpp:5: undefined reference to `g'",
  // "libx.so: undefined reference to `g'". Without a linker prefix only lines naming a linker problem count.
  bool handleLinkerBody(std::string_view rest, bool prefixed) {
    const auto sect = rest.find(":(.");
    if (sect != std::string_view::npos) {
      const auto close = rest.find("): ", sect);
      if (close != std::string_view::npos) {
        const auto msg = trim(rest.substr(close + 3));
        if (prefixed || isLinkerPhrase(msg)) {
          pushLink(Severity::Error, std::string(rest.substr(0, sect)), 0, std::string(msg));
          return true;
        }
      }
    }
    if (auto loc = leadingLocation(rest)) {
      const auto afterLoc = rest.find(": ", loc->file.size());
      const auto msg =
          afterLoc == std::string_view::npos ? std::string_view{} : trim(rest.substr(afterLoc + 2));
      if (!msg.empty() && (prefixed || isLinkerPhrase(msg)) && !isSpace(rest[afterLoc + 2])) {
        pushLink(Severity::Error, loc->file, loc->line, std::string(msg));
        return true;
      }
    }
    const auto colon = rest.find(": ");
    if (colon != std::string_view::npos && isLinkerPhrase(rest.substr(colon + 2)) &&
        !contains(rest.substr(0, colon), " ")) {
      pushLink(Severity::Error, std::string(rest.substr(0, colon)), 0, std::string(rest.substr(colon + 2)));
      return true;
    }
    return false;
  }

  // ">>> referenced by k.cpp:5 (src/k.cpp:5)" and its ">>>               k.o:(main)" continuation.
  bool handleLldArrow(std::string_view line) {
    if (!startsWith(line, ">>>")) return false;
    Diagnostic* t = top();
    if (!t) return true;
    const std::string_view raw = line.substr(3);
    const std::string_view text = trim(raw);
    if (startsWith(raw, "  ") && !t->notes.empty()) {
      t->notes.back() += ", " + std::string(text);
      return true;
    }
    t->notes.emplace_back(text);
    for (std::string_view lead : {"referenced by ", "defined at "}) {
      if (!startsWith(text, lead) || !t->file.empty()) continue;
      std::string_view where = text.substr(lead.size());
      const auto paren = where.find(" (");
      if (paren != std::string_view::npos && where.back() == ')')
        where = where.substr(paren + 2, where.size() - paren - 3);
      Location loc = parseLocation(where);
      t->file = loc.file;
      t->line = loc.line;
    }
    return true;
  }

  // gcc "file: In function ‘f’:", "file: At global scope:", "file: In instantiation of ‘...’:".
  bool handleScope(std::string_view line) {
    if (line.back() != ':') return false;
    for (std::string_view marker : {": In ", ": At "}) {
      const auto at = line.find(marker);
      if (at == std::string_view::npos || at == 0 || contains(line.substr(0, at), " ")) continue;
      std::string_view what = line.substr(at + 2, line.size() - at - 3);
      if (startsWith(what, "At global scope")) {
        scope_.reset();
      } else if (startsWith(what, "In instantiation of") || startsWith(what, "In substitution of")) {
        scope_.reset();
        pendingContext_.emplace_back(what);
      } else {
        scope_ = std::string(what);
      }
      sink_ = Sink::None;
      return true;
    }
    return false;
  }

  // gcc "file:L:C:   required from here" (a location, then at least two spaces, no severity).
  bool handleGccContext(std::string_view line) {
    auto loc = leadingLocation(line);
    if (!loc) return false;
    const auto colon = line.find(": ", loc->file.size());
    if (colon == std::string_view::npos || line.substr(colon + 1, 3) != "   ") return false;
    pendingContext_.push_back(std::string(line.substr(0, colon + 1)) + " " +
                              squeezeSpaces(line.substr(colon + 1)));
    sink_ = Sink::Discard;
    return true;
  }

  // nvcc "          detected during instantiation of "..." at line 18", or "detected during:" followed by
  // one "instantiation of ..." line per level.
  bool handleNvccDetected(std::string_view line) {
    const auto t = trim(line);
    Diagnostic* d = top();
    if (!isSpace(line.front()) || !d) return false;
    if (t == "detected during:") {
      nvccDetectedBlock_ = true;
      return true;
    }
    if (startsWith(t, "detected during ")) {
      d->notes.emplace_back(t);
      return true;
    }
    if (nvccDetectedBlock_ && (startsWith(t, "instantiation of ") || startsWith(t, "processing of "))) {
      d->notes.push_back("detected during " + std::string(t));
      return true;
    }
    return false;
  }

  // "nvcc fatal   : Unsupported gpu architecture 'compute_10'".
  bool handleNvccTool(std::string_view line) {
    if (!startsWith(line, "nvcc ")) return false;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) return false;
    const auto word = trim(line.substr(5, colon - 5));
    Severity sev;
    if (word == "fatal")
      sev = Severity::Fatal;
    else if (word == "error")
      sev = Severity::Error;
    else if (word == "warning")
      sev = Severity::Warning;
    else
      return false;
    return handleToolDiagnostic("nvcc", sev, std::string(trim(line.substr(colon + 1))));
  }
};

}  // namespace

int CompilerOutput::errorCount() const {
  return static_cast<int>(
      std::count_if(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) { return d.isError(); }));
}

int CompilerOutput::warningCount() const {
  return static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                        [](const Diagnostic& d) { return d.severity == Severity::Warning; }));
}

CompilerOutput parseCompilerOutput(std::string_view text) {
  return Parser(text).run();
}

std::vector<Diagnostic> parseCompilerDiagnostics(std::string_view text) {
  return parseCompilerOutput(text).diagnostics;
}

}  // namespace kwb
