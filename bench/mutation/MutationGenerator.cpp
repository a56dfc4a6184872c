// SPDX-License-Identifier: MIT
#include "bench/mutation/MutationGenerator.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <regex>
#include <string_view>

namespace kwb::mutation {
namespace {

using Lines = std::vector<std::string>;

Lines splitLines(const std::string& text) {
  Lines out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) {
      out.push_back(text.substr(begin));
      break;
    }
    out.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

std::string joinLines(const Lines& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i) out += '\n';
    out += lines[i];
  }
  return out;
}

std::string trimmed(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

bool containsWord(const std::string& line, const std::string& word) {
  return std::regex_search(line, std::regex("\\b" + word + "\\b"));
}

// The kernel part: everything above the tiling function (the tiling-side operators work below it).
struct Source {
  Lines lines;
  std::size_t kernelEnd = 0;  // index of the "#if KWB_COMPILE_TILING" line, or lines.size()
};

Source parse(const std::string& text) {
  Source s{splitLines(text), 0};
  s.kernelEnd = s.lines.size();
  for (std::size_t i = 0; i < s.lines.size(); ++i)
    if (s.lines[i].rfind("#if KWB_COMPILE_TILING", 0) == 0) {
      s.kernelEnd = i;
      break;
    }
  return s;
}

std::optional<std::size_t> firstMatch(const Lines& lines, std::size_t from, std::size_t to,
                                      const std::regex& re) {
  for (std::size_t i = from; i < to && i < lines.size(); ++i)
    if (std::regex_search(lines[i], re)) return i;
  return std::nullopt;
}

// `for (...)`, `if (...)`, `while (...)`, `else`: the header of a brace-less body is not part of the
// statement below it.
bool isControlHeader(const std::string& line) {
  return std::regex_search(line, std::regex("^(for|if|while|else)\\b"));
}

// First line of the statement that contains line `i` (a statement continues while the line above it
// does not end a statement or open/close a block).
std::size_t statementStart(const Lines& lines, std::size_t i) {
  while (i > 0) {
    const std::string above = trimmed(lines[i - 1]);
    if (above.empty() || above.back() == ';' || above.back() == '{' || above.back() == '}' ||
        above.rfind("//", 0) == 0 || above.rfind('#', 0) == 0 || isControlHeader(above))
      break;
    --i;
  }
  return i;
}

// The statement that last used `name` before line `i`: where a deleted hand-off should have followed.
std::optional<std::size_t> lastUseBefore(const Lines& lines, std::size_t i, const std::string& name) {
  for (std::size_t j = i; j-- > 0;) {
    if (containsWord(lines[j], name)) return statementStart(lines, j);
    if (trimmed(lines[j]).rfind("__aicore__", 0) == 0) break;  // not past the function's start
  }
  return std::nullopt;
}

Mutant make(const ExpertKernel& k, std::string op, std::string description, std::string category,
            std::set<int> causeLines, const Lines& lines) {
  return Mutant{
      k.task,          std::move(op), std::move(description), std::move(category), std::move(causeLines),
      joinLines(lines)};
}

int lineNo(std::size_t index) {
  return static_cast<int>(index) + 1;
}

// Deletes the first statement `<queue>.<api>(<tensor>);`; the cause is the deleted line and the last
// statement before it that used the tensor.
std::optional<Mutant> deleteHandOff(const ExpertKernel& k, const Source& s, const std::string& op,
                                    const std::string& api, const std::string& what) {
  const std::regex re("^\\s*\\w+\\." + api + "(<\\w+>)?\\((\\w+)\\);\\s*$");
  const auto at = firstMatch(s.lines, 0, s.kernelEnd, re);
  if (!at) return std::nullopt;
  std::smatch m;
  std::regex_search(s.lines[*at], m, re);
  const std::string tensor = m[2].str();
  Lines lines = s.lines;
  lines[*at].clear();
  std::set<int> cause{lineNo(*at)};
  if (auto use = lastUseBefore(s.lines, *at, tensor)) cause.insert(lineNo(*use));
  return make(k, op, "deleted " + trimmed(s.lines[*at]) + " (" + what + ")", "queue-misuse", cause, lines);
}

std::optional<Mutant> dequeAsAlloc(const ExpertKernel& k, const Source& s) {
  const auto at = firstMatch(s.lines, 0, s.kernelEnd, std::regex("\\.DeQue<"));
  if (!at) return std::nullopt;
  Lines lines = s.lines;
  lines[*at] = std::regex_replace(lines[*at], std::regex("\\.DeQue<"), ".AllocTensor<",
                                  std::regex_constants::format_first_only);
  return make(k, "deque-as-alloc", "DeQue written as AllocTensor: " + trimmed(lines[*at]), "queue-misuse",
              {lineNo(*at)}, lines);
}

// A counted loop (`++i`) that runs one iteration too far.
std::optional<Mutant> loopBound(const ExpertKernel& k, const Source& s) {
  const std::regex re("for \\(.* < .*; \\+\\+\\w+\\)");
  const auto at = firstMatch(s.lines, 0, s.kernelEnd, re);
  if (!at) return std::nullopt;
  Lines lines = s.lines;
  const std::size_t lt = lines[*at].find(" < ");
  lines[*at].replace(lt, 3, " <= ");
  return make(k, "loop-bound", "loop bound off by one: " + trimmed(lines[*at]), "gm-out-of-bounds",
              {lineNo(*at)}, lines);
}

// The tile loop's last, shorter tile no longer clamped: it copies a whole tile past the block's end.
std::optional<Mutant> tailClamp(const ExpertKernel& k, const Source& s) {
  const std::regex re("^(\\s*const uint32_t \\w+ = )\\(.*\\) \\? .* : (\\w+);\\s*$");
  const auto at = firstMatch(s.lines, 0, s.kernelEnd, re);
  if (!at) return std::nullopt;
  Lines lines = s.lines;
  lines[*at] = std::regex_replace(lines[*at], re, "$1$2;");
  return make(k, "tail-clamp", "last tile not clamped: " + trimmed(lines[*at]), "gm-out-of-bounds",
              {lineNo(*at)}, lines);
}

// The end of the expression that starts at `from`: the first top-level ',' or ')'.
std::size_t expressionEnd(const std::string& line, std::size_t from) {
  int depth = 0;
  for (std::size_t i = from; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '(' || c == '<') ++depth;
    if ((c == ',' || c == ')') && depth == 0) return i;
    if (c == ')' || c == '>') --depth;
  }
  return std::string::npos;
}

// An output's per-block offset halved: blocks write over each other's slices.
std::optional<Mutant> blockOffset(const ExpertKernel& k, const Source& s) {
  for (const auto& out : k.outputNames) {
    const auto at = firstMatch(s.lines, 0, s.kernelEnd, std::regex("\\b" + out + "Gm\\.SetGlobalBuffer\\("));
    if (!at) continue;
    std::string line = s.lines[*at];
    const std::string base = "*)" + out + " + ";
    const std::size_t b = line.find(base);
    if (b == std::string::npos) continue;
    const std::size_t from = b + base.size();
    const std::size_t end = expressionEnd(line, from);
    if (end == std::string::npos) continue;
    const std::string expr = line.substr(from, end - from);
    line.replace(from, end - from, "(" + expr + ") / 2");
    Lines lines = s.lines;
    lines[*at] = line;
    return make(k, "block-offset", "per-block offset of " + out + " halved: " + trimmed(line),
                "multicore-overlap", {lineNo(*at)}, lines);
  }
  return std::nullopt;
}

// A queue's buffers half the size the copies into them need.
std::optional<Mutant> tileLength(const ExpertKernel& k, const Source& s) {
  const auto at =
      firstMatch(s.lines, 0, s.kernelEnd, std::regex("InitBuffer\\(\\w*[Qq]ueue.* \\* sizeof\\("));
  if (!at) return std::nullopt;
  Lines lines = s.lines;
  const std::size_t mul = lines[*at].find(" * sizeof(");
  lines[*at].insert(mul, " / 2");
  return make(k, "tile-length", "queue buffer too short: " + trimmed(lines[*at]), "ub-out-of-bounds",
              {lineNo(*at)}, lines);
}

// The wait of a SetFlag/WaitFlag pair deleted: the flag is never waited for (and the vector op reads what
// MTE2 may not have written yet).
std::optional<Mutant> deleteWaitFlag(const ExpertKernel& k, const Source& s) {
  const std::regex re("^\\s*WaitFlag<[\\w:]+>\\((\\w+)\\);\\s*$");
  const auto at = firstMatch(s.lines, 0, s.kernelEnd, re);
  if (!at) return std::nullopt;
  std::smatch m;
  std::regex_search(s.lines[*at], m, re);
  Lines lines = s.lines;
  lines[*at].clear();
  std::set<int> cause{lineNo(*at)};
  if (auto use = lastUseBefore(s.lines, *at, m[1].str())) cause.insert(lineNo(*use));
  return make(k, "delete-waitflag", "deleted " + trimmed(s.lines[*at]), "unpaired-flag", cause, lines);
}

// An attribute read from the tiling replaced by its default: right only in the cases that use it.
std::optional<Mutant> hardcodeAttr(const ExpertKernel& k, const Source& s) {
  for (const auto& attr : k.attrNames) {
    const std::regex def("kwb_attr_(float|int)\\(in, \"" + attr + "\", ([-+0-9.eE]+)\\)");
    std::optional<std::string> value;
    for (std::size_t i = s.kernelEnd; i < s.lines.size() && !value; ++i) {
      std::smatch m;
      if (std::regex_search(s.lines[i], m, def))
        value = m[1].str() == "float" ? "static_cast<float>(" + m[2].str() + ")" : m[2].str();
    }
    if (!value) continue;
    const std::regex use("\\bt\\." + attr + "\\b");
    const auto at = firstMatch(s.lines, 0, s.kernelEnd, use);
    if (!at) continue;
    Lines lines = s.lines;
    lines[*at] = std::regex_replace(lines[*at], use, *value, std::regex_constants::format_first_only);
    return make(k, "hardcode-attr", "attribute " + attr + " hard-coded: " + trimmed(lines[*at]),
                "wrong-answer", {lineNo(*at)}, lines);
  }
  return std::nullopt;
}

std::optional<Mutant> blockDimZero(const ExpertKernel& k, const Source& s) {
  const std::regex re("^(\\s*)kwb_set_block_dim\\(out, .*\\);\\s*$");
  const auto at = firstMatch(s.lines, s.kernelEnd, s.lines.size(), re);
  if (!at) return std::nullopt;
  Lines lines = s.lines;
  lines[*at] = std::regex_replace(lines[*at], re, "$1kwb_set_block_dim(out, 0);");
  return make(k, "blockdim-zero", "tiling sets blockDim 0", "invalid-param", {lineNo(*at)}, lines);
}

// A row reduction over the 32-byte-padded row length: it reads the lanes DataCopyPad (isPad false)
// never wrote. Passes on an emulator that zero-fills UB; hardware reads stale data.
std::optional<Mutant> reduceReadsPadding(const ExpertKernel& k, const Source& s) {
  const std::regex re("^(\\s*Reduce(Sum|Max|Min)\\(\\w+, \\w+, \\w+, )n\\);\\s*$");
  const auto at = firstMatch(s.lines, 0, s.kernelEnd, re);
  if (!at || !firstMatch(s.lines, 0, s.kernelEnd, std::regex("\\bcolsAligned_\\b"))) return std::nullopt;
  const auto copy = firstMatch(s.lines, 0, s.kernelEnd, std::regex("DataCopyPad\\(\\w+, \\w+Gm\\["));
  Lines lines = s.lines;
  lines[*at] = std::regex_replace(lines[*at], re, "$1static_cast<int32_t>(colsAligned_));");
  std::set<int> cause{lineNo(*at)};
  if (copy) cause.insert(lineNo(*copy));
  return make(k, "reduce-reads-padding", "reduction over the padded row: " + trimmed(lines[*at]),
              "uninitialized-read", cause, lines);
}

// A block's share offset by one: `start = share * GetBlockIdx()` made `share * (GetBlockIdx() + 1)`.
// Every block works one share too far along; block 0's share is never written and the last block runs
// past the end or (with a clamped length) does nothing.
std::optional<Mutant> blockIdxShift(const ExpertKernel& k, const Source& s) {
  const std::regex re("(=.*\\*\\s*static_cast<\\w+>\\()GetBlockIdx\\(\\)(\\))");
  const auto at = firstMatch(s.lines, 0, s.kernelEnd, re);
  if (!at) return std::nullopt;
  Lines lines = s.lines;
  lines[*at] =
      std::regex_replace(lines[*at], re, "$1(GetBlockIdx() + 1)$2", std::regex_constants::format_first_only);
  return make(k, "blockidx-shift", "block offset one share too far: " + trimmed(lines[*at]), "wrong-answer",
              {lineNo(*at)}, lines);
}

// An input's GM range given half its length (`SetGlobalBuffer(x + start, length_ / 2)`) while the
// kernel walks and clamps against the whole share: its copies run past the range.
std::optional<Mutant> rangeLength(const ExpertKernel& k, const Source& s) {
  const std::regex re("^(\\s*\\w+Gm\\.SetGlobalBuffer\\(.*, )(\\w+)\\);\\s*$");
  for (std::size_t i = 0; i < s.kernelEnd; ++i) {
    std::smatch m;
    if (!std::regex_search(s.lines[i], m, re)) continue;
    const bool output = std::any_of(k.outputNames.begin(), k.outputNames.end(), [&](const std::string& o) {
      return s.lines[i].find(o + "Gm.") != std::string::npos;
    });
    if (output) continue;
    Lines lines = s.lines;
    lines[i] = m[1].str() + m[2].str() + " / 2);";
    return make(k, "range-length", "input range given half its length: " + trimmed(lines[i]),
                "gm-out-of-bounds", {lineNo(i)}, lines);
  }
  return std::nullopt;
}

using Operator = std::function<std::optional<Mutant>(const ExpertKernel&, const Source&)>;

const std::vector<std::pair<std::string, Operator>>& operators() {
  static const std::vector<std::pair<std::string, Operator>> ops = {
      {"delete-enque",
       [](const ExpertKernel& k, const Source& s) {
         return deleteHandOff(k, s, "delete-enque", "EnQue", "the tensor is never handed to its consumer");
       }},
      {"delete-free",
       [](const ExpertKernel& k, const Source& s) {
         return deleteHandOff(k, s, "delete-free", "FreeTensor", "the buffer is never returned to its queue");
       }},
      {"deque-as-alloc", dequeAsAlloc},
      {"loop-bound", loopBound},
      {"tail-clamp", tailClamp},
      {"block-offset", blockOffset},
      {"tile-length", tileLength},
      {"delete-waitflag", deleteWaitFlag},
      {"hardcode-attr", hardcodeAttr},
      {"blockdim-zero", blockDimZero},
      {"reduce-reads-padding", reduceReadsPadding},
      {"blockidx-shift", blockIdxShift},
      {"range-length", rangeLength},
  };
  return ops;
}

}  // namespace

std::vector<std::string> mutationOperatorIds() {
  std::vector<std::string> ids;
  for (const auto& [id, op] : operators()) ids.push_back(id);
  return ids;
}

std::vector<Mutant> generateMutants(const ExpertKernel& kernel) {
  const Source s = parse(kernel.source);
  std::vector<Mutant> out;
  for (const auto& [id, op] : operators())
    if (auto m = op(kernel, s)) out.push_back(std::move(*m));
  return out;
}

}  // namespace kwb::mutation
