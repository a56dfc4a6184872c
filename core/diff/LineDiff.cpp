// SPDX-License-Identifier: MIT
#include "core/diff/LineDiff.h"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <sstream>

namespace kwb {

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    start = nl + 1;
  }
  return lines;
}

LineDiff diffLines(std::string_view left, std::string_view right) {
  const auto a = splitLines(left);
  const auto b = splitLines(right);
  dtl::Diff<std::string> d(a, b);
  d.onHuge();
  d.compose();
  LineDiff out;
  // dtl yields deletes and adds separately; pair runs of deletes with the adds that follow them so a
  // modified line shows as one Changed row, the way side-by-side diff tools present it.
  std::vector<DiffRow> pendingDel, pendingAdd;
  auto flush = [&] {
    const size_t n = std::max(pendingDel.size(), pendingAdd.size());
    for (size_t i = 0; i < n; ++i) {
      DiffRow r;
      if (i < pendingDel.size() && i < pendingAdd.size()) {
        r = pendingDel[i];
        r.kind = DiffKind::Changed;
        r.rightLine = pendingAdd[i].rightLine;
        r.right = pendingAdd[i].right;
      } else if (i < pendingDel.size()) {
        r = pendingDel[i];
      } else {
        r = pendingAdd[i];
      }
      out.rows.push_back(std::move(r));
    }
    pendingDel.clear();
    pendingAdd.clear();
  };
  for (const auto& [elem, info] : d.getSes().getSequence()) {
    switch (info.type) {
      case dtl::SES_DELETE:
        pendingDel.push_back({DiffKind::Removed, int(info.beforeIdx), 0, elem, {}});
        ++out.removed;
        break;
      case dtl::SES_ADD:
        pendingAdd.push_back({DiffKind::Added, 0, int(info.afterIdx), {}, elem});
        ++out.added;
        break;
      case dtl::SES_COMMON:
        flush();
        out.rows.push_back({DiffKind::Same, int(info.beforeIdx), int(info.afterIdx), elem, elem});
        break;
    }
  }
  flush();
  return out;
}

std::string unifiedDiff(const LineDiff& diff, std::string_view leftName, std::string_view rightName,
                        int context) {
  // Expand Changed rows into -/+ pairs first; hunks are then runs of non-Same rows plus context.
  struct Line {
    char tag;
    int l, r;
    const std::string* text;
  };
  std::vector<Line> lines;
  for (const auto& row : diff.rows) {
    switch (row.kind) {
      case DiffKind::Same:
        lines.push_back({' ', row.leftLine, row.rightLine, &row.left});
        break;
      case DiffKind::Removed:
        lines.push_back({'-', row.leftLine, 0, &row.left});
        break;
      case DiffKind::Added:
        lines.push_back({'+', 0, row.rightLine, &row.right});
        break;
      case DiffKind::Changed:
        lines.push_back({'-', row.leftLine, 0, &row.left});
        lines.push_back({'+', 0, row.rightLine, &row.right});
        break;
    }
  }
  std::ostringstream out;
  if (diff.identical()) return {};
  out << "--- " << leftName << "\n+++ " << rightName << "\n";
  size_t i = 0;
  const size_t n = lines.size();
  while (i < n) {
    while (i < n && lines[i].tag == ' ') ++i;
    if (i >= n) break;
    size_t begin = i >= size_t(context) ? i - size_t(context) : 0;
    size_t end = i;
    // Extend while the next change is within 2*context lines.
    while (end < n) {
      if (lines[end].tag != ' ') {
        ++end;
        continue;
      }
      size_t k = end;
      while (k < n && lines[k].tag == ' ') ++k;
      if (k < n && k - end <= size_t(2 * context)) {
        end = k;
        continue;
      }
      end = std::min(n, end + size_t(context));
      break;
    }
    int lStart = 0, rStart = 0, lCount = 0, rCount = 0;
    int lastL = 0, lastR = 0;
    for (size_t k = begin; k < end; ++k) {
      if (lines[k].tag != '+') {
        if (!lStart) lStart = lines[k].l;
        ++lCount;
      }
      if (lines[k].tag != '-') {
        if (!rStart) rStart = lines[k].r;
        ++rCount;
      }
      if (lines[k].l) lastL = lines[k].l;
      if (lines[k].r) lastR = lines[k].r;
    }
    if (!lStart) lStart = lastL;
    if (!rStart) rStart = lastR;
    out << "@@ -" << lStart << "," << lCount << " +" << rStart << "," << rCount << " @@\n";
    for (size_t k = begin; k < end; ++k) out << lines[k].tag << *lines[k].text << "\n";
    i = end;
  }
  return out.str();
}

}  // namespace kwb
