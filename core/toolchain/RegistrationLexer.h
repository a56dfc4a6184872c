// SPDX-License-Identifier: MIT
#pragma once
// Enough C++ lexing to read an operator project's registration code without compiling it
// (core/toolchain/OpProjectSource.h, core/toolchain/OpProjectTemplate.h): comments dropped, strings
// kept without their quotes, preprocessor lines skipped, each token with its line.

#include <cstddef>
#include <string>
#include <vector>

namespace kwb::registration_lexer {

struct Tok {
  enum Kind { Ident, Number, String, Punct } kind;
  std::string text;  // strings without their quotes
  int line;
};

std::vector<Tok> lex(const std::string& s);
// The namespaces enclosing each token ("a::b" or "").
std::vector<std::string> namespacesOf(const std::vector<Tok>& t);
// The token closing the bracket at `open` ("(", "{" or "["); t.size() when it is not closed.
std::size_t matching(const std::vector<Tok>& t, std::size_t open);

}  // namespace kwb::registration_lexer
