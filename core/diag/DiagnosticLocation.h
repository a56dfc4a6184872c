// SPDX-License-Identifier: MIT
#pragma once
// Where a diagnostic points, after parsing: source excerpts built from the source text when a tool printed
// none, file-name matching across relative/absolute paths, locations at the start of note lines, and moving
// errors reported inside library or emulator headers to the user's own line.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/Diagnostic.h"

namespace kwb {

// "Source line + caret" for line (1-based) and column (1-based, 0 = no caret) of sourceText, in gcc's
// gutter layout ("   12 | code" / "      |     ^"), with contextLines lines before and after. Empty when
// the line does not exist. Tabs before the column are kept so the caret lines up in a terminal.
std::string makeSourceExcerpt(std::string_view sourceText, int line, int column, int contextLines = 0);

// True when both name the same file: equal, or one is a path suffix of the other at a '/' boundary
// ("src/k.cpp" and "/home/u/proj/src/k.cpp"; not "k.cpp" and "xk.cpp"). "./" prefixes are ignored.
bool sameSourceFile(std::string_view a, std::string_view b);

// Gives every diagnostic located in `file` (per sameSourceFile) that has a line but no excerpt an excerpt
// built from sourceText. Returns how many diagnostics were changed.
int addSourceExcerpts(std::vector<Diagnostic>& diagnostics, std::string_view file,
                      std::string_view sourceText, int contextLines = 0);

// A location at the start of a note or of a raw diagnostic line: "file:line:col: ..." or "file:line: ...".
struct LeadingLocation {
  std::string file;
  int line = 0;
  int column = 0;
};
std::optional<LeadingLocation> leadingLocation(std::string_view text);

// For diagnostics reported inside library/emulator headers (isUserFile(file) is false): moves the
// location to the innermost user-file line of its template instantiation context (gcc "required from",
// clang "requested here" notes), adds a note naming the original location and drops the excerpt, which
// showed the header. Returns how many diagnostics moved.
int relocateToUserCode(std::vector<Diagnostic>& diagnostics,
                       const std::function<bool(std::string_view file)>& isUserFile);

// For the harness's findings about the tiling function (api kwb_set_block_dim, kwb_set_workspace or
// kwb_tiling, no file yet): the line of that call (or of kwb_tiling's definition) in `file`, when
// sourceText has exactly one outside comments; with several the finding stays without a line rather
// than pointing at the wrong one. Returns how many diagnostics got a location (docs/emulator.md,
// "Cause lines").
int locateTilingCalls(std::vector<Diagnostic>& diagnostics, std::string_view file,
                      std::string_view sourceText);

}  // namespace kwb
