// SPDX-License-Identifier: MIT
#include "core/verify/BlockRangeCause.h"

#include <set>
#include <sstream>
#include <string_view>

#include "core/diag/CodeStructure.h"

namespace kwb::verify {
namespace {

std::vector<std::string> sourceLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

bool readsBlockIdx(std::string_view code) {
  return code.find("GetBlockIdx") != std::string_view::npos;
}

std::string trimmedLine(const std::vector<std::string>& lines, int line) {
  if (line <= 0 || static_cast<std::size_t>(line) > lines.size()) return {};
  const std::string& l = lines[static_cast<std::size_t>(line) - 1];
  const auto b = l.find_first_not_of(" \t");
  const auto e = l.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : l.substr(b, e - b + 1);
}

// The assignment, up to `depth` steps back from the variables of `expression`, whose value calls
// GetBlockIdx(); each variable is followed once.
std::optional<int> blockIdxOrigin(const CodeText& text, const std::string& expression, std::size_t before,
                                  int depth, std::set<std::string>& seen) {
  if (depth <= 0) return std::nullopt;
  for (const std::string& var : variablesIn(expression)) {
    if (!seen.insert(var).second) continue;
    const auto a = lastAssignment(text, var, 0, before);
    if (!a) continue;
    if (readsBlockIdx(a->value)) return a->line;
    const auto at = text.lineStart(a->line);
    if (auto deeper = blockIdxOrigin(text, a->value, at ? *at : before, depth - 1, seen)) return deeper;
  }
  return std::nullopt;
}

}  // namespace

std::optional<int> blockOffsetLine(const std::string& source, int setLine) {
  const CodeText text(sourceLines(source));
  const auto call = callOnLine(text, setLine, "SetGlobalBuffer");
  if (!call) return std::nullopt;
  const auto args = callArguments(text, *call);
  if (args.empty()) return std::nullopt;
  if (readsBlockIdx(args.front())) return setLine;
  std::set<std::string> seen;
  return blockIdxOrigin(text, args.front(), *call, 3, seen);
}

std::optional<Diagnostic> blockRangeShiftCause(const std::vector<CaseCheck>& cases,
                                               const std::string& candidateName,
                                               const std::string& candidateSource) {
  for (const CaseCheck& c : cases) {
    for (const TensorCheck& t : c.outputs) {
      // One block alone cannot show a shift: its missing start may as well be a skipped first tile.
      if (t.passed || c.blockDim <= 1 || !t.pattern.unwrittenPrefix || t.rangeSetLine <= 0) continue;
      const std::int64_t prefix = *t.pattern.unwrittenPrefix;
      const std::vector<std::string> lines = sourceLines(candidateSource);
      const auto origin = blockOffsetLine(candidateSource, t.rangeSetLine);
      Diagnostic d;
      d.source = "verifier";
      d.severity = Severity::Error;
      d.category = std::string(category::WrongAnswer);
      d.file = candidateName;
      d.line = origin ? *origin : t.rangeSetLine;
      d.tensor = t.tensor;
      d.excerpt = trimmedLine(lines, d.line);
      const std::string first = "elements 0.." + std::to_string(prefix - 1) + " of " + t.tensor + " (case " +
                                c.caseName + ", blockDim " + std::to_string(c.blockDim) +
                                ") are written by no block while the elements after them are";
      if (origin && *origin != t.rangeSetLine) {
        d.message = first + ": the first block's GM range starts " + std::to_string(prefix) +
                    " elements too far along. The per-block offset computed here (`" + d.excerpt +
                    "`) is given to SetGlobalBuffer at line " + std::to_string(t.rangeSetLine) +
                    "; block i's range must start at i times its share (GetBlockIdx() * share, no extra "
                    "term), so that block 0 starts at the output's first element";
        d.related.push_back({"the SetGlobalBuffer that takes this offset", candidateName, t.rangeSetLine});
      } else {
        d.message = first + ": the SetGlobalBuffer here starts the first block's GM range " +
                    std::to_string(prefix) +
                    " elements too far along; block i's range must start at i times its share "
                    "(GetBlockIdx() * share, no extra term), so that block 0 starts at the output's first "
                    "element";
      }
      return d;
    }
  }
  return std::nullopt;
}

}  // namespace kwb::verify
