// SPDX-License-Identifier: MIT
#pragma once
// Line diff of two candidate sources, aligned for side-by-side display and summarised for prompts
// and reviews. Built on dtl (an O(ND) diff) rather than a hand-written LCS.

#include <string>
#include <string_view>
#include <vector>

namespace kwb {

enum class DiffKind { Same, Removed, Added, Changed };

// One display row. A Changed row pairs a removed line with an added one; Removed/Added rows have only
// one side. Line numbers are 1-based; 0 means "no line on this side".
struct DiffRow {
  DiffKind kind = DiffKind::Same;
  int leftLine = 0;
  int rightLine = 0;
  std::string left;
  std::string right;
};

struct LineDiff {
  std::vector<DiffRow> rows;
  int added = 0;    // lines only on the right (changed rows count once here and once in removed)
  int removed = 0;  // lines only on the left
  bool identical() const { return added == 0 && removed == 0; }
};

std::vector<std::string> splitLines(std::string_view text);

LineDiff diffLines(std::string_view left, std::string_view right);

// A unified diff with `context` lines around each hunk ("--- a", "+++ b", "@@ -l,n +r,m @@").
std::string unifiedDiff(const LineDiff& diff, std::string_view leftName, std::string_view rightName,
                        int context = 3);

}  // namespace kwb
