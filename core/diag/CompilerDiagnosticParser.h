// SPDX-License-Identifier: MIT
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
//   rejections) -> that category; the API name goes to Diagnostic::api (unsupported-dtype: only in the
//   emulator's "<API> does not support|accept ..." form).
// Lines it does not recognise (make, cmake, ninja chatter) are skipped. Excerpts from source text and
// relocation to the user's line are in DiagnosticLocation.h.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/DiagnosticLocation.h"
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

}  // namespace kwb
