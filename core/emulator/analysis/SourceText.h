// SPDX-License-Identifier: MIT
#pragma once
// Names the tensor a diagnostic is about by reading the user's call at file:line: the text of the
// call's N-th argument ("xLocal", "zGm[progress * tileLength]") or of the object a method was called on.

#include <string>
#include <vector>

namespace kwb_sim::rt {

struct OperandText {
  std::string text;  // argument as written (whitespace squeezed)
  std::string name;  // identifier root: "zGm" for "zGm[i * n]", "xLocal" for "this->xLocal"
};

// operand >= 0: argument index; -1: the object before ".api(". Empty when the source is unavailable.
OperandText operandText(const std::string& file, unsigned line, const std::string& api, int operand);
// The source line (trimmed), for excerpts.
std::string sourceLine(const std::string& file, unsigned line);
// The same on lines the caller holds (the trusted side passes its own copy of the candidate, never a
// path named by a record).
OperandText operandTextOf(const std::vector<std::string>* lines, unsigned line, const std::string& api,
                          int operand);
std::string sourceLineOf(const std::vector<std::string>* lines, unsigned line);

}  // namespace kwb_sim::rt
