// SPDX-License-Identifier: MIT
#pragma once
// Recognisers for single lines of compiler/linker output, used by CompilerDiagnosticParser (which keeps the
// state across lines). Internal to core/diag; namespace kwb::compiler_lines.

#include <optional>
#include <string>
#include <string_view>

#include "core/model/Diagnostic.h"

namespace kwb::compiler_lines {

struct Location {
  std::string file;
  int line = 0;
  int column = 0;
  bool hasLine = false;
};

// "file:L:C", "file:L", "file(L)", "file(L,C)" or just "file" (hasLine false).
Location parseLocation(std::string_view prefix);

// A driver or tool rather than a file: "clang", "g++", "cc1plus", "collect2", "ld.lld", "/usr/bin/ld".
bool looksLikeTool(std::string_view prefix);
// "ld", "/usr/bin/ld", "ld.lld", "ld.gold", "x86_64-linux-gnu-ld", "mold", ...
bool isLinkerName(std::string_view prefix);
// "undefined reference to", "multiple definition of", "undefined symbol", ...
bool isLinkerPhrase(std::string_view msg);

struct Header {
  std::string_view prefix;  // location or tool before ": <severity>"; empty when the line starts with it
  Severity severity = Severity::Error;
  std::string_view code;  // nvcc "#177-D"
  std::string_view message;
};
// Finds "<prefix>: <severity>: <message>" (or "<severity>: <message>" at the start of the line), with
// severities fatal error, catastrophic error, error, warning, note, remark and nvcc's "warning #177-D:".
std::optional<Header> findHeader(std::string_view line);

// clang/nvcc caret line: only blanks, '^' and '~'.
bool isCaretLine(std::string_view s);
// gcc's excerpt layout: "   12 | code", "      |   ^~~", "  +++ |+#include <x>", "  ......".
bool isGutterLine(std::string_view s);

// The emulator rejects unsupported APIs/dtypes with static_assert(..., "kwb-sim: <category>: ...") (or
// #error): sets d.category to that word and d.api to the API named after it (for unsupported-dtype only in
// the "<API> does not support|accept ..." form the emulator's headers use).
void applyKwbSimCategory(Diagnostic& d);

}  // namespace kwb::compiler_lines
