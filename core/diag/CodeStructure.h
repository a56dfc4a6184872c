// SPDX-License-Identifier: MIT
#pragma once
// A small structural reading of a candidate kernel's C++ text, enough to name the cause of a runtime
// finding (docs/emulator.md, "Cause lines"): the loop around a line, the function around it and where that
// function is called, a call's arguments, the last assignment of a variable. Pure functions over the text
// the workbench holds of the candidate; comments and string literals are blanked first, so nothing in them
// is read as code. It is not a C++ parser: callers treat every answer as a hint and keep the finding where
// the runtime put it when an answer is missing or ambiguous.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

class CodeText {
 public:
  explicit CodeText(const std::vector<std::string>& lines);

  // The text with comments, string and character literals replaced by spaces (newlines kept).
  const std::string& code() const { return code_; }
  int lineOf(std::size_t pos) const;                     // 1-based
  std::optional<std::size_t> lineStart(int line) const;  // offset of the line's first character
  // The bracket that closes (or opens) the one at `pos` for (), [] and {}; npos when unmatched.
  std::size_t partner(std::size_t pos) const;

 private:
  std::string code_;
  std::vector<std::size_t> lineStarts_;
  std::vector<std::size_t> partner_;
};

struct ForLoop {
  int headerLine = 0;
  std::size_t keyword = 0;    // offset of "for"
  std::string header;         // the text between the parentheses, whitespace squeezed
  std::size_t bodyBegin = 0;  // the body's '{' (or first character of a single statement)
  std::size_t bodyEnd = 0;    // its '}' (or ';')
};
// The innermost for loop whose body contains `pos`.
std::optional<ForLoop> innermostLoopAround(const CodeText& text, std::size_t pos);

struct FunctionSpan {
  std::string name;
  std::size_t nameAt = 0;
  std::vector<std::string> params;  // parameter names, in order
  std::size_t bodyBegin = 0;        // '{'
  std::size_t bodyEnd = 0;          // '}'
};
// The innermost function definition whose body contains `pos`.
std::optional<FunctionSpan> functionAround(const CodeText& text, std::size_t pos);

// Offsets of the name of every call of `name(...)` (definitions and declarations excluded).
std::vector<std::size_t> callsOf(const CodeText& text, const std::string& name);
// The first call of `name(` that starts on `line`; the offset of its name.
std::optional<std::size_t> callOnLine(const CodeText& text, int line, const std::string& name);
// The top-level arguments of the call whose name is at `nameAt`, each trimmed.
std::vector<std::string> callArguments(const CodeText& text, std::size_t nameAt);

struct Assignment {
  int line = 0;
  std::string value;  // the assigned expression, whitespace squeezed
};
// The last `var = ...` (a declaration with an initializer or a plain assignment; not ==, not a member of
// another object) in [from, before).
std::optional<Assignment> lastAssignment(const CodeText& text, const std::string& var, std::size_t from,
                                         std::size_t before);

// The variable names an expression reads: identifiers that are not keywords, built-in or Ascend C type
// names, and not called, templated or brace-initialised (functions, casts, types).
std::vector<std::string> variablesIn(std::string_view expression);

}  // namespace kwb
