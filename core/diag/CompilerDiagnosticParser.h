#pragma once
// Pure parser for compiler and linker output: clang and the clang-based bisheng/ccec, gcc/g++, nvcc, GNU ld
// (through collect2) and lld. Running the compiler is the toolchain's job; this only reads its text.
//
// What it understands:
//   file:line:col: error|warning|note|remark|fatal error: message   (clang, gcc; also file:line: and
//   file(line): error: message, file(line): warning #177-D: message   nvcc's front end)
//   the source line + caret (+ fix-it) lines after a diagnostic      -> Diagnostic::excerpt
//   notes                                                            -> notes of the preceding diagnostic
//   "In file included from a.h:3:" chains (clang and gcc layout)     -> notes of the next diagnostic,
//                                                                       innermost include first
//   gcc "file: In function '...':" scope lines                       -> a note on each diagnostic in it
//   gcc "In instantiation of" / "required from" context, nvcc
//   "detected during instantiation of ..."                           -> notes
//   "N errors generated." / "N warnings and M errors generated." /
//   "N errors detected in the compilation of ..."                    -> CompilerOutput counts
//   GNU ld "x.o: in function `f':" + "file.cpp:(.text+0x1a): undefined reference to `g'", ld.lld
//   "error: undefined symbol: g" + ">>> referenced by" lines         -> category "link-error"
//   "collect2: error: ld returned 1 exit status", "clang: error: linker command failed ..."
//                                                                    -> CompilerOutput::linkFailed (and a
//                                                                       diagnostic only if nothing else
//                                                                       explains the link failure)
//   static_assert / #error messages carrying "kwb-sim: <category>: ..." (the emulator's compile-time
//   rejections) -> that category; for unsupported-api the API name goes to Diagnostic::api.
// Lines it does not recognise (make, cmake, ninja chatter) are skipped.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/Diagnostic.h"

namespace kwb {

struct CompilerOutput {
  std::vector<Diagnostic> diagnostics;  // source "compiler"; in output order
  std::optional<int> reportedErrors;    // summed over every "N errors generated/detected" line
  std::optional<int> reportedWarnings;  // summed over every "N warnings generated" line
  bool linkFailed = false;              // a linker or the driver said linking failed
  bool terminated = false;              // "compilation terminated." (gcc after a fatal error)

  int errorCount() const;    // parsed diagnostics with Error or Fatal severity
  int warningCount() const;  // parsed diagnostics with Warning severity
};

CompilerOutput parseCompilerOutput(std::string_view text);

// Only the diagnostics of parseCompilerOutput.
std::vector<Diagnostic> parseCompilerDiagnostics(std::string_view text);

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
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};
std::optional<SourceLocation> leadingLocation(std::string_view text);

// For diagnostics reported inside library/emulator headers (isUserFile(file) is false): moves the
// location to the innermost user-file line of its template instantiation context (gcc "required from",
// clang "requested here" notes), adds a note naming the original location and drops the excerpt, which
// showed the header. Returns how many diagnostics moved.
int relocateToUserCode(std::vector<Diagnostic>& diagnostics,
                       const std::function<bool(std::string_view file)>& isUserFile);

}  // namespace kwb
