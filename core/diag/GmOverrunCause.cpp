// SPDX-License-Identifier: MIT
#include "core/diag/GmOverrunCause.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "core/diag/CodeStructure.h"
#include "core/diag/TextLines.h"

namespace kwb {
namespace {

constexpr int kMaxCallDepth = 3;  // Process -> CopyIn -> DataCopy, and one more level of helpers

std::string trimmedLine(const std::vector<std::string>& lines, int line) {
  if (line < 1 || static_cast<std::size_t>(line) > lines.size()) return {};
  return std::string(textlines::trim(lines[static_cast<std::size_t>(line) - 1]));
}

// The line of `tensor.SetGlobalBuffer(` when there is exactly one.
int setGlobalBufferLine(const CodeText& text, const std::string& tensor) {
  const std::string& s = text.code();
  int found = 0;
  for (const std::size_t p : callsOf(text, "SetGlobalBuffer")) {
    std::size_t dot = p;
    while (dot > 0 && textlines::isSpace(s[dot - 1])) --dot;
    if (dot == 0 || s[dot - 1] != '.') continue;
    std::size_t end = dot - 1;
    while (end > 0 && textlines::isSpace(s[end - 1])) --end;
    std::size_t begin = end;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(s[begin - 1])) != 0 || s[begin - 1] == '_'))
      --begin;
    if (s.substr(begin, end - begin) != tensor) continue;
    if (found != 0) return 0;
    found = text.lineOf(p);
  }
  return found;
}

// The one loop every path from `pos` up its callers runs through (innermost first at each level); none
// when a path has no loop, the paths reach different loops, or the calls nest deeper than we follow.
struct LoopPath {
  ForLoop loop;
  std::vector<RelatedLocation> calls;  // the calls between the loop and the access
};
std::optional<LoopPath> loopReaching(const CodeText& text, std::size_t pos, int depth) {
  if (auto loop = innermostLoopAround(text, pos)) return LoopPath{*loop, {}};
  if (depth >= kMaxCallDepth) return std::nullopt;
  const auto f = functionAround(text, pos);
  if (!f) return std::nullopt;
  const auto calls = callsOf(text, f->name);
  if (calls.empty()) return std::nullopt;
  std::optional<LoopPath> found;
  for (const std::size_t c : calls) {
    auto path = loopReaching(text, c, depth + 1);
    if (!path) return std::nullopt;
    if (found && found->loop.keyword != path->loop.keyword) return std::nullopt;
    if (!found) {
      path->calls.insert(path->calls.begin(),
                         RelatedLocation{"the call of " + f->name + " inside the loop", "", text.lineOf(c)});
      found = std::move(path);
    }
  }
  return found;
}

bool hasClamp(const std::string& value) {
  return value.find('?') != std::string::npos || value.find("min(") != std::string::npos ||
         value.find("Min(") != std::string::npos;
}

// The length argument of the SetGlobalBuffer call on `setLine`; none when there is no such call.
std::optional<std::string> rangeLengthArgument(const CodeText& text, int setLine) {
  const auto call = callOnLine(text, setLine, "SetGlobalBuffer");
  if (!call) return std::nullopt;
  const auto args = callArguments(text, *call);
  if (args.size() < 2) return std::nullopt;
  return args[1];
}

std::string withoutSpaces(const std::string& s) {
  std::string out;
  for (const char c : s)
    if (!textlines::isSpace(c)) out += c;
  return out;
}

// Whether the clamp is against the very length the range was given (the SetGlobalBuffer's second
// argument appears in it): then the two agree and neither is the likelier mistake.
bool clampMatchesRange(const CodeText& text, int setLine, const std::string& clamp) {
  const auto length = rangeLengthArgument(text, setLine);
  return !length || withoutSpaces(clamp).find(withoutSpaces(*length)) != std::string::npos;
}

// Whether the SetGlobalBuffer on `setLine` computes its length from a variable `expression` (a copy's
// length, a loop's header) also reads, yet is not contained in it (so the range length has arithmetic of
// its own).
bool rangeLengthDerivesFrom(const CodeText& text, int setLine, const std::string& expression) {
  const auto length = rangeLengthArgument(text, setLine);
  if (!length) return false;
  const auto rangeVars = variablesIn(*length);
  const auto otherVars = variablesIn(expression);
  const bool shares = std::any_of(rangeVars.begin(), rangeVars.end(), [&](const std::string& v) {
    return std::find(otherVars.begin(), otherVars.end(), v) != otherVars.end();
  });
  return shares && withoutSpaces(expression).find(withoutSpaces(*length)) == std::string::npos;
}

// Whether the SetGlobalBuffer's length is cut down by its own arithmetic (a division, a subtraction or a
// right shift), so that it is shorter than the quantity it is made of.
bool rangeLengthIsCut(const CodeText& text, int setLine) {
  const auto length = rangeLengthArgument(text, setLine);
  return length && (length->find('/') != std::string::npos || length->find('-') != std::string::npos ||
                    length->find(">>") != std::string::npos);
}

struct LengthOrigin {
  Assignment assignment;
  std::string variable;
  std::vector<RelatedLocation> calls;  // the calls that pass it down to the access
};

// Where the variables of `expression` (read at `pos`) got their values: the last assignment in the
// function before `pos`, or, for a parameter, in each caller before the call.
void lengthOrigins(const CodeText& text, const std::string& expression, std::size_t pos, int depth,
                   std::vector<LengthOrigin>& out) {
  const auto f = functionAround(text, pos);
  if (!f) return;
  for (const std::string& v : variablesIn(expression)) {
    const auto param = std::find(f->params.begin(), f->params.end(), v);
    if (param == f->params.end()) {
      if (auto a = lastAssignment(text, v, f->bodyBegin, pos)) out.push_back(LengthOrigin{*a, v, {}});
      continue;
    }
    if (depth >= kMaxCallDepth) continue;
    const auto index = static_cast<std::size_t>(param - f->params.begin());
    for (const std::size_t c : callsOf(text, f->name)) {
      const auto args = callArguments(text, c);
      if (index >= args.size()) continue;
      std::vector<LengthOrigin> up;
      lengthOrigins(text, args[index], c, depth + 1, up);
      for (auto& o : up) {
        o.calls.push_back(
            RelatedLocation{"the call of " + f->name + " that passes " + v, "", text.lineOf(c)});
        out.push_back(std::move(o));
      }
    }
  }
}

std::string range(long long first, long long end) {
  return "[" + std::to_string(first) + ", " + std::to_string(end) + ")";
}

void moveTo(Diagnostic& d, int line, std::string message, std::vector<RelatedLocation> related,
            const std::vector<std::string>& lines) {
  d.notes.insert(d.notes.begin(), "at the access (line " + std::to_string(d.line) + "): " + d.message);
  for (auto& r : related)
    if (r.file.empty()) r.file = d.file;
  d.related.insert(d.related.end(), related.begin(), related.end());
  d.line = line;
  d.column = 0;
  d.message = std::move(message);
  d.excerpt = trimmedLine(lines, line);
}

}  // namespace

bool placeGmOverrunAtCause(Diagnostic& d, const GmRangeAccess& a, const std::vector<std::string>& lines) {
  if (d.line <= 0 || !d.api || a.first < 0) return false;
  const CodeText text(lines);
  const auto call = callOnLine(text, d.line, *d.api);
  if (!call) return false;
  const std::string& api = *d.api;
  const std::string verb = a.write ? "writes" : "reads";
  const std::string tensor = d.tensor.value_or("its GlobalTensor");
  const auto rangeBytes = static_cast<long long>(a.rangeBytes);
  const long long end = a.first + static_cast<long long>(a.length);
  const int setLine = d.tensor ? setGlobalBufferLine(text, *d.tensor) : 0;
  const std::string setAt = setLine ? " (SetGlobalBuffer at line " + std::to_string(setLine) + ")" : "";
  std::vector<RelatedLocation> related{
      RelatedLocation{"the " + api + " that " + verb + " past the range (where it shows)", "", d.line}};

  if (a.first == rangeBytes) {
    // Starts exactly where the range ends: the iteration after the last one the range was set for.
    auto path = loopReaching(text, *call, 0);
    if (!path) return false;
    related.insert(related.end(), path->calls.begin(), path->calls.end());
    // A loop that stops with `<` at the bound the range's length was cut from (`rowCount_ / 2` against
    // `row < rowCount_`) walks the length it was meant to: the range is the short one.
    if (setLine && path->loop.header.find("<=") == std::string::npos &&
        rangeLengthDerivesFrom(text, setLine, path->loop.header) && rangeLengthIsCut(text, setLine)) {
      related.push_back(RelatedLocation{"the loop that walks the whole length", "", path->loop.headerLine});
      moveTo(d, setLine,
             "the range set here holds " + std::to_string(rangeBytes) + " bytes, less than the loop (for (" +
                 path->loop.header + ")) walks: in its last iterations the " + api + " at line " +
                 std::to_string(d.line) + " " + verb + " GM bytes " + range(a.first, end) + " of " + tensor +
                 ", from the range's end on. Give SetGlobalBuffer the whole length the loop covers",
             std::move(related), lines);
      return true;
    }
    if (setLine) related.push_back(RelatedLocation{"the SetGlobalBuffer that sets the range", "", setLine});
    moveTo(
        d, path->loop.headerLine,
        "this loop (for (" + path->loop.header +
            ")) runs one iteration too many: in its last iteration the " + api + " at line " +
            std::to_string(d.line) + " " + verb + " GM bytes " + range(a.first, end) + " of " + tensor +
            ", which start exactly at the end of the " + std::to_string(rangeBytes) +
            " bytes its range holds" + setAt +
            ". Stop the loop at the range's end (for example `<` rather than `<=`), or give SetGlobalBuffer "
            "the length the loop covers",
        std::move(related), lines);
    return true;
  }

  if (a.first < rangeBytes && end > rangeBytes && (api == "DataCopy" || api == "DataCopyPad")) {
    // Starts inside and runs past: the length. Its origin is the one unclamped assignment it comes from.
    const auto args = callArguments(text, *call);
    if (args.size() < 3) return false;
    // One copy from the range's first byte runs past it, and the range's length is made of the same
    // variable as the copy's, with arithmetic of its own (`cols_ / 2` against a copy of `cols_`): the two
    // disagree, and the range is the odd one.
    if (setLine && a.first == 0 && rangeLengthDerivesFrom(text, setLine, args[2]) &&
        rangeLengthIsCut(text, setLine)) {
      moveTo(d, setLine,
             "the range set here holds " + std::to_string(rangeBytes) + " bytes, less than the " + api +
                 " at line " + std::to_string(d.line) + " moves: it " + verb + " GM bytes " +
                 range(a.first, end) + " of " + tensor + ", " + std::to_string(end - rangeBytes) +
                 " bytes past the range's end, with a length made of the same variable the range's length is "
                 "computed from here. Give SetGlobalBuffer the whole length the copies use",
             std::move(related), lines);
      return true;
    }
    std::vector<LengthOrigin> origins;
    lengthOrigins(text, args[2], *call, 0, origins);
    std::set<int> originLines;
    for (const auto& o : origins) originLines.insert(o.assignment.line);
    if (originLines.size() != 1) return false;
    const LengthOrigin& o = origins.front();
    if (hasClamp(o.assignment.value)) {
      // The length already stops at what the kernel believes is left, yet the access runs past the range:
      // the range is shorter than what the kernel walks, so its SetGlobalBuffer length is the likelier
      // mistake (docs/emulator.md, "Cause lines").
      if (!setLine || clampMatchesRange(text, setLine, o.assignment.value)) return false;
      related.insert(related.end(), o.calls.rbegin(), o.calls.rend());
      related.push_back(RelatedLocation{"the clamped length the " + api + " uses", "", o.assignment.line});
      moveTo(d, setLine,
             "the range set here holds " + std::to_string(rangeBytes) +
                 " bytes, less than the kernel walks: the " + api + " at line " + std::to_string(d.line) +
                 ", whose length is already clamped (" + o.variable + " = " + o.assignment.value + "), " +
                 verb + " GM bytes " + range(a.first, end) + " of " + tensor + ", " +
                 std::to_string(end - rangeBytes) +
                 " bytes past the range's end. Give SetGlobalBuffer the length the loop and its clamp cover "
                 "(the block's whole share)",
             std::move(related), lines);
      return true;
    }
    related.insert(related.end(), o.calls.rbegin(), o.calls.rend());
    if (setLine) related.push_back(RelatedLocation{"the SetGlobalBuffer that sets the range", "", setLine});
    moveTo(d, o.assignment.line,
           "the length set here (" + o.variable + " = " + o.assignment.value +
               ") is not clamped to what is left of the range: the " + api + " at line " +
               std::to_string(d.line) + ", whose length comes from " + o.variable + ", " + verb +
               " GM bytes " + range(a.first, end) + " of " + tensor + ", " +
               std::to_string(end - rangeBytes) + " bytes past the end of the " + std::to_string(rangeBytes) +
               " bytes its range holds" + setAt +
               ". Clamp it to the part left (for example `left < tile ? left : tile`) so the last, shorter "
               "tile stays inside",
           std::move(related), lines);
    return true;
  }
  return false;
}

}  // namespace kwb
